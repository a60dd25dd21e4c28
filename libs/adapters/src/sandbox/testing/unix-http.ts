import http from 'node:http';

/** A GET over a dev server's Unix socket (the way the preview proxy reaches it). */
export function getOverSocket(socketPath: string, urlPath: string, host = 'localhost'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath, path: urlPath, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}
