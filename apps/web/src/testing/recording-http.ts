import type { DeleteOptions, HttpClient, RequestOptions } from '../app/ports';

/** An HttpClient that records each call (method, path, body, options) and answers {}: for API clients' specs. */
export class RecordingHttp implements HttpClient {
  readonly calls: [string, string, unknown, RequestOptions | undefined][] = [];
  async get<T>(path: string, options?: RequestOptions): Promise<T> {
    this.calls.push(['GET', path, undefined, options]);
    return {} as T;
  }
  async post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    this.calls.push(['POST', path, body, options]);
    return {} as T;
  }
  async patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    this.calls.push(['PATCH', path, body, options]);
    return {} as T;
  }
  async delete<T>(path: string, options?: DeleteOptions): Promise<T> {
    this.calls.push(['DELETE', path, options?.body, options]);
    return {} as T;
  }
}
