import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../app/ports';
import { FetchHttpClient, type FetchFn, MAX_TRIES, REQUEST_FAILED, STREAM_FAILED, STREAM_UNSUPPORTED } from './http';

type Step = Response | Error;

/** A fetch that answers from a script and records every request. */
function scriptedFetch(...steps: Step[]) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch: FetchFn = async (url, init) => {
    requests.push({ url, init });
    const step = steps.shift();
    if (step === undefined) throw new Error('no more scripted replies');
    if (step instanceof Error) throw step;
    return step;
  };
  return { fetch, requests };
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const networkError = (): Error => new TypeError('Failed to fetch');
const abortError = (): Error => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });

function client(fetch: FetchFn, token: string | null = 'tok') {
  const sleeps: number[] = [];
  const logged: unknown[] = [];
  const http = new FetchHttpClient({
    fetch,
    accessToken: async () => token,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    log: (_message, error) => logged.push(error),
  });
  return { http, sleeps, logged };
}

describe('FetchHttpClient', () => {
  it('asks fetch to outlive the page only when told (keepalive: analytics sent as the page is left)', async () => {
    const { fetch, requests } = scriptedFetch(json(202, { recorded: 1 }), json(202, { recorded: 1 }));
    const { http } = client(fetch);
    await http.post('/api/analytics/events', { events: [] }, { keepalive: true });
    await http.post('/api/analytics/events', { events: [] });
    expect(requests.map((r) => r.init.keepalive)).toEqual([true, undefined]);
    expect((requests[0]?.init.headers as Record<string, string>)['Authorization']).toBe('Bearer tok');
  });

  it('sends a Blob (an attached file) as it is, with the type the caller names, never as JSON', async () => {
    const { fetch, requests } = scriptedFetch(json(201, { id: 'a1' }));
    const { http } = client(fetch);
    const file = new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' });
    await http.post('/api/projects/p/attachments', file, { headers: { 'Content-Type': 'image/png', 'X-File-Name': 'logo.png' }, retry: false });
    expect(requests[0]?.init.body).toBe(file);
    expect(requests[0]?.init.headers).toMatchObject({ 'Content-Type': 'image/png', 'X-File-Name': 'logo.png', Authorization: 'Bearer tok' });
  });

  it('sends JSON with the bearer token and returns the parsed reply', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { ok: 1 }));
    const { http } = client(fetch);

    const reply = await http.post<{ ok: number }>('/api/profile/ensure', { referral_code: 'K7QX2M' });

    expect(reply).toEqual({ ok: 1 });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe('/api/profile/ensure');
    expect(requests[0]?.init.method).toBe('POST');
    expect(requests[0]?.init.body).toBe('{"referral_code":"K7QX2M"}');
    expect(requests[0]?.init.headers).toMatchObject({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    });
  });

  it('sends no Authorization header without a session or for anonymous calls', async () => {
    const signedOut = scriptedFetch(json(200, {}));
    await client(signedOut.fetch, null).http.get('/api/plans');
    expect(signedOut.requests[0]?.init.headers).not.toHaveProperty('Authorization');

    const anonymous = scriptedFetch(json(200, {}));
    await client(anonymous.fetch, 'tok').http.get('/api/plans', { anonymous: true });
    expect(anonymous.requests[0]?.init.headers).not.toHaveProperty('Authorization');
  });

  it('returns undefined for 204 and empty bodies', async () => {
    const { fetch } = scriptedFetch(new Response(null, { status: 204 }), new Response('', { status: 200 }));
    const { http } = client(fetch);
    await expect(http.delete('/api/projects/1')).resolves.toBeUndefined();
    await expect(http.get('/x')).resolves.toBeUndefined();
  });

  it('sends a DELETE body as JSON when one is given (the hosting routes take one)', async () => {
    const { fetch, requests } = scriptedFetch(json(200, { status: 'unpublished' }), new Response(null, { status: 204 }));
    const { http } = client(fetch);
    await expect(http.delete('/api/fly/destroy-app', { body: { project_id: 'p1' } })).resolves.toEqual({ status: 'unpublished' });
    expect(requests[0]?.init.method).toBe('DELETE');
    expect(requests[0]?.init.body).toBe('{"project_id":"p1"}');
    expect(requests[0]?.init.headers).toHaveProperty('Content-Type', 'application/json');
    await http.delete('/api/projects/1');
    expect(requests[1]?.init.body).toBeUndefined();
  });

  it('retries network failures and 5xx replies: 3 tries in total, then succeeds', async () => {
    const { fetch, requests } = scriptedFetch(networkError(), json(503, { code: 'UNAVAILABLE', detail: 'down' }), json(200, { n: 3 }));
    const { http, sleeps } = client(fetch);

    await expect(http.get('/api/profile')).resolves.toEqual({ n: 3 });
    expect(requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up after 3 tries, logs, and throws the last failure', async () => {
    const { fetch, requests } = scriptedFetch(
      json(500, { code: 'INTERNAL', detail: 'first' }),
      json(502, { code: 'INTERNAL', detail: 'second' }),
      json(500, { code: 'INTERNAL', detail: 'Database is down' }),
      json(200, {}),
    );
    const { http, logged } = client(fetch);

    const error = await http.get('/api/profile').catch((e: unknown) => e);

    expect(requests).toHaveLength(MAX_TRIES);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Database is down', status: 500, code: 'INTERNAL' });
    expect(logged).toEqual([error]);
  });

  it("throws 'Request failed' when the network never answers", async () => {
    const { fetch, requests } = scriptedFetch(networkError(), networkError(), networkError());
    const error = await client(fetch).http.get('/api/profile').catch((e: unknown) => e);

    expect(requests).toHaveLength(3);
    expect(error).toMatchObject({ name: 'ApiError', message: REQUEST_FAILED, status: 0 });
  });

  it('never retries a 4xx reply and throws its detail', async () => {
    const { fetch, requests } = scriptedFetch(json(402, { code: 'CREDITS.LIMIT_REACHED', detail: 'Credit limit reached', limit_type: 'credit' }));
    const error = await client(fetch).http.post('/api/credits/consume').catch((e: unknown) => e);

    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({ message: 'Credit limit reached', status: 402, code: 'CREDITS.LIMIT_REACHED' });
    expect((error as ApiError).body).toMatchObject({ limit_type: 'credit' });
  });

  it("uses the reply's message when it has no detail, else 'Request failed'", async () => {
    const withMessage = scriptedFetch(json(400, { message: 'Bad thing' }));
    await expect(client(withMessage.fetch).http.get('/x')).rejects.toMatchObject({ message: 'Bad thing', status: 400 });

    const withoutText = scriptedFetch(new Response('<html>nope</html>', { status: 404 }));
    await expect(client(withoutText.fetch).http.get('/x')).rejects.toMatchObject({ message: REQUEST_FAILED, status: 404, code: null });
  });

  it('never retries an aborted request', async () => {
    const { fetch, requests } = scriptedFetch(abortError(), json(200, {}));
    const error = await client(fetch).http.get('/x').catch((e: unknown) => e);

    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('does not start another try once the caller has aborted', async () => {
    const controller = new AbortController();
    const fetch: FetchFn = async () => {
      controller.abort();
      throw networkError();
    };
    let calls = 0;
    const counting: FetchFn = (url, init) => {
      calls += 1;
      return fetch(url, init);
    };
    const error = await client(counting).http.get('/x', { signal: controller.signal }).catch((e: unknown) => e);

    expect(calls).toBe(1);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('tries once only when the request says retry: false (a 5xx or a network failure is final)', async () => {
    const server = scriptedFetch(json(503, { code: 'UNAVAILABLE', detail: 'busy' }), json(200, {}));
    const first = client(server.fetch);
    await expect(first.http.post('/api/projects/p1/turns/t1/cancel', undefined, { retry: false })).rejects.toMatchObject({ status: 503, message: 'busy' });
    expect(server.requests).toHaveLength(1);
    expect(first.sleeps).toEqual([]);

    const network = scriptedFetch(networkError(), json(200, {}));
    await expect(client(network.fetch).http.get('/x', { retry: false })).rejects.toMatchObject({ message: REQUEST_FAILED, status: 0 });
    expect(network.requests).toHaveLength(1);
  });
});

describe('FetchHttpClient.postStream', () => {
  const sse = (text: string) => new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

  it('POSTs JSON with the bearer token, asks for an event stream and hands back the body', async () => {
    const { fetch, requests } = scriptedFetch(sse('event: turn\ndata: {}\n\n'));
    const body = await client(fetch).http.postStream('/api/projects/p1/turns', { message: 'Hi', idempotency_key: 'k1' });

    expect(await new Response(body).text()).toBe('event: turn\ndata: {}\n\n');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.init).toMatchObject({ method: 'POST', body: '{"message":"Hi","idempotency_key":"k1"}', cache: 'no-store' });
    expect(requests[0]?.init.headers).toMatchObject({ Authorization: 'Bearer tok', Accept: 'text/event-stream', 'Content-Type': 'application/json' });
  });

  it('is never retried: a 5xx reply or a network failure throws after one request', async () => {
    const server = scriptedFetch(json(500, { code: 'INTERNAL', detail: 'boom' }), sse(''));
    await expect(client(server.fetch).http.postStream('/t')).rejects.toMatchObject({ status: 500, message: 'boom' });
    expect(server.requests).toHaveLength(1);

    const network = scriptedFetch(networkError(), sse(''));
    const { http, sleeps } = client(network.fetch);
    await expect(http.postStream('/t')).rejects.toMatchObject({ status: 0, code: 'NETWORK', message: STREAM_FAILED });
    expect(network.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("a failed streaming reply without a reason reads 'Streaming request failed' (SPEC §8)", async () => {
    const server = scriptedFetch(json(502, {}));
    await expect(client(server.fetch).http.postStream('/t')).rejects.toMatchObject({ status: 502, message: 'Streaming request failed' });
  });

  it('keeps a 402 refusal with its limit type', async () => {
    const { fetch } = scriptedFetch(json(402, { code: 'CREDITS.LIMIT_REACHED', detail: 'No credits left', limit_type: 'credit' }));
    const error = await client(fetch).http.postStream('/t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 402, code: 'CREDITS.LIMIT_REACHED', body: { limit_type: 'credit' } });
  });

  it("says 'ReadableStream not supported' when a reply has no body, and passes aborts through", async () => {
    const { fetch } = scriptedFetch(new Response(null, { status: 200 }));
    await expect(client(fetch).http.postStream('/t')).rejects.toMatchObject({ message: STREAM_UNSUPPORTED });

    const controller = new AbortController();
    controller.abort();
    const untouched = scriptedFetch(sse(''));
    await expect(client(untouched.fetch).http.postStream('/t', {}, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(untouched.requests).toHaveLength(0);
  });
});
