import { ApiError, type DeleteOptions, type DownloadHttpClient, type HttpClient, type RequestOptions, type StreamingHttpClient } from '../app/ports';

/** SPEC §7: a failed request is tried up to 3 times in total, then logged and rethrown. */
export const MAX_TRIES = 3;
/** Pause before the 2nd and 3rd try (ms). */
export const RETRY_DELAYS_MS: readonly number[] = [300, 900];
export const REQUEST_FAILED = 'Request failed';
/** SPEC §8: a streaming reply without a body to read. */
export const STREAM_UNSUPPORTED = 'ReadableStream not supported';
/** SPEC §8: a streaming request that failed without the server saying why. */
export const STREAM_FAILED = 'Streaming request failed';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpClientDeps {
  readonly fetch: FetchFn;
  /** The bearer token of the signed-in session, or null (SessionService.accessToken). */
  readonly accessToken: () => Promise<string | null>;
  /** Prefix of every path: '' for the page's own origin. */
  readonly baseUrl?: string;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly log?: (message: string, error: unknown) => void;
}

/**
 * HttpClient over fetch: JSON in and out, the session's bearer token, and SPEC §7's retries —
 * 3 tries in total on network failures and 5xx replies, never on 4xx replies or aborted
 * requests; `retry: false` asks for one try only. A failure throws ApiError with the reply's
 * `detail` (or `message`), else 'Request failed'. `postStream` opens a streaming reply
 * (server-sent events), always with one try; its failures without a reason read 'Streaming
 * request failed' (SPEC §8).
 */
export class FetchHttpClient implements HttpClient, StreamingHttpClient, DownloadHttpClient {
  private readonly baseUrl: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly log: (message: string, error: unknown) => void;

  constructor(private readonly deps: HttpClientDeps) {
    this.baseUrl = deps.baseUrl ?? '';
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.log = deps.log ?? ((message, error) => console.error(message, error));
  }

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, undefined, options);
  }

  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, body, options);
  }

  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, body, options);
  }

  delete<T>(path: string, options?: DeleteOptions): Promise<T> {
    return this.request<T>('DELETE', path, options?.body, options);
  }

  /**
   * POST whose reply is read as it arrives. Never retried: the server may already be at work
   * (an AI turn charges credits). Resolves with the body once a 2xx reply has started.
   */
  async postStream(path: string, body?: unknown, options: RequestOptions = {}): Promise<ReadableStream<Uint8Array>> {
    throwIfAborted(options.signal);
    const init = await this.init('POST', body, { ...options, headers: { Accept: 'text/event-stream', ...options.headers } });
    let response: Response;
    try {
      response = await this.deps.fetch(this.baseUrl + path, { ...init, cache: 'no-store' });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (isAbort(error)) throw error;
      const failure = new ApiError(STREAM_FAILED, 0, 'NETWORK', null);
      failure.cause = error;
      this.log(`POST ${path} failed`, failure);
      throw failure;
    }
    if (!response.ok) throw await toApiError(response, STREAM_FAILED);
    if (response.body === null) throw new ApiError(STREAM_UNSUPPORTED, response.status, null, null);
    return response.body;
  }

  /** GET of a file (Export as zip): the whole reply as a Blob. Tried once (a large download is not repeated blindly). */
  async download(path: string, options: RequestOptions = {}): Promise<Blob> {
    throwIfAborted(options.signal);
    const init = await this.init('GET', undefined, { ...options, headers: { Accept: '*/*', ...options.headers } });
    let response: Response;
    try {
      response = await this.deps.fetch(this.baseUrl + path, { ...init, cache: 'no-store' });
    } catch (error) {
      if (isAbort(error)) throw error;
      const failure = new ApiError(REQUEST_FAILED, 0, 'NETWORK', null);
      failure.cause = error;
      this.log(`GET ${path} failed`, failure);
      throw failure;
    }
    if (!response.ok) throw await toApiError(response);
    return response.blob();
  }

  private async request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    const tries = options.retry === false ? 1 : MAX_TRIES;
    let lastError: ApiError | null = null;
    for (let attempt = 1; attempt <= tries; attempt += 1) {
      if (attempt > 1) await this.sleep(RETRY_DELAYS_MS[attempt - 2] ?? RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 0);
      throwIfAborted(options.signal);
      const init = await this.init(method, body, options);
      let response: Response;
      try {
        response = await this.deps.fetch(this.baseUrl + path, init);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        if (isAbort(error)) throw error;
        lastError = new ApiError(REQUEST_FAILED, 0, 'NETWORK', null);
        lastError.cause = error;
        continue;
      }
      if (response.ok) return (await readBody(response)) as T;
      const failure = await toApiError(response);
      if (response.status < 500) throw failure;
      lastError = failure;
    }
    const error = lastError ?? new ApiError(REQUEST_FAILED, 0, null, null);
    this.log(`${method} ${path} failed after ${tries} ${tries === 1 ? 'try' : 'tries'}`, error);
    throw error;
  }

  private async init(method: string, body: unknown, options: RequestOptions): Promise<RequestInit> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    // A Blob (an attached file) goes as it is, its type in options.headers; anything else as JSON.
    const raw = typeof Blob !== 'undefined' && body instanceof Blob;
    if (body !== undefined && !raw) headers['Content-Type'] = 'application/json';
    if (!options.anonymous) {
      const token = await this.deps.accessToken();
      if (token) headers['Authorization'] = `Bearer ${token}`;
    }
    Object.assign(headers, options.headers);
    return {
      method,
      headers,
      body: body === undefined ? undefined : raw ? (body as Blob) : JSON.stringify(body),
      signal: options.signal,
      credentials: 'same-origin',
      ...(options.keepalive ? { keepalive: true } : {}),
    };
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function toApiError(response: Response, fallback = REQUEST_FAILED): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await readBody(response);
  } catch {
    body = null;
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
  const message = text(record['detail']) ?? text(record['message']) ?? fallback;
  const code = text(record['code']);
  return new ApiError(message, response.status, code, body);
}
