import http from 'node:http';

/**
 * fetch for `{ref}.data.localhost` (unknown to this machine's resolver): every request goes to
 * 127.0.0.1 on the URL's port with the URL's Host, and any body fetch takes (a string, bytes, a
 * Blob, a FormData with its multipart boundary) is serialised the way fetch would send it.
 */
export const loopbackBinaryFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = init?.method ?? 'GET';
  // Request serialises the body (FormData → multipart with its Content-Type), as fetch would.
  const request = new Request(url, { method, headers: init?.headers, ...(init?.body === undefined || init.body === null || method === 'GET' || method === 'HEAD' ? {} : { body: init.body, duplex: 'half' }) } as RequestInit);
  const body = method === 'GET' || method === 'HEAD' ? null : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = { ...Object.fromEntries(request.headers), host: url.host };
  if (body !== null) headers['content-length'] = String(body.length);
  return new Promise<Response>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, path: `${url.pathname}${url.search}`, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 500;
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        const noBody = status === 204 || status === 304 || method === 'HEAD';
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers: h }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== null) req.write(body);
    req.end();
  });
};

/** A raw request to the data origin (paths fetch would normalise, such as `%2e%2e`, reach the server as written). */
export function rawRequest(port: number, host: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { ...headers, host, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
