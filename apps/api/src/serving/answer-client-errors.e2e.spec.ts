import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { type TestApp, startTestApp } from '../testing/e2e.js';
import { MAX_HEADER_BYTES } from './max-header-size.js';

/**
 * Requests Node refuses before any handler (docs/databases.md "Limits"): headers past 64 KiB are
 * a 431 that a browser can read (CORS, a JSON body), on a fresh connection and on a kept-alive
 * one, for the data origin's hosts as for the API's; other garbage is a 400, as Node answers it.
 */
describe('client errors of the HTTP server (e2e)', () => {
  let t: TestApp;
  let port: number;
  const dataHost = 'abcdefghij0123456789.data.localhost';

  beforeAll(async () => {
    t = await startTestApp();
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Writes the requests one after another on one connection and returns all it got back until the server closed it. */
  function exchange(requests: readonly string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let next = 0;
      const send = () => {
        if (next < requests.length) socket.write(requests[next++]!);
        else socket.end();
      };
      socket.on('connect', send);
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
        // The next request once the previous answer is complete (these answers carry a length or are empty).
        if (/\r\n\r\n/.test(received) && next < requests.length && !received.includes('Connection: close')) send();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
  }
  const get = (host: string, extra = '') => `GET /rest/v1/todos HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;
  const oversized = (host: string) => get(host, `X-Big: ${'x'.repeat(MAX_HEADER_BYTES + 1)}\r\n`);

  const expect431 = (answer: string) => {
    const at = answer.lastIndexOf('HTTP/1.1 ');
    const [head, body] = answer.slice(at).split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toContain('Access-Control-Allow-Origin: *');
    expect(head).toContain('Connection: close');
    expect(JSON.parse(body)).toEqual({
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: "The request's URL and headers are larger than 64 KiB",
      detail: "The request's URL and headers are larger than 64 KiB",
      details: null,
      hint: null,
    });
  };

  it('answers headers past 64 KiB with a readable 431, to the data origin and to the API', async () => {
    expect431(await exchange([oversized(dataHost)]));
    expect431(await exchange([oversized(`127.0.0.1:${port}`)]));
  });

  it('answers the 431 on a kept-alive connection after an earlier answer', async () => {
    const answer = await exchange([get(`127.0.0.1:${port}`).replace('/rest/v1/todos', '/health'), oversized(dataHost)]);
    expect(answer.startsWith('HTTP/1.1 ')).toBe(true);
    expect(answer.split('HTTP/1.1 ')).toHaveLength(3);
    expect431(answer);
  });

  it('lets headers just under the limit through, and answers a malformed request 400 as Node does', async () => {
    const under = await exchange([get(`127.0.0.1:${port}`, `X-Big: ${'x'.repeat(MAX_HEADER_BYTES - 1024)}\r\nConnection: close\r\n`).replace('/rest/v1/todos', '/health')]);
    expect(under).not.toContain(' 431 ');
    expect(await exchange(['NOT HTTP AT ALL\r\n\r\n'])).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
});
