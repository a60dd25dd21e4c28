import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_HEADER_BYTES } from './max-header-size.js';

const HEADERS_TOO_LARGE = JSON.stringify({
  code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  message: `The request's URL and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB`,
  detail: `The request's URL and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB`,
  details: null,
  hint: null,
});

const plain = (status: string) => `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`;

/**
 * What the server answers to a request Node could not parse, before any handler sees it (so
 * before the Host is known). Node alone answers 431 to headers past its limit (MAX_HEADER_BYTES) with no body and no
 * CORS header, which a browser's fetch reports as a network error; here the 431 is readable from
 * any origin (the data origin's apps call from theirs) and says why, in a body both shapes'
 * readers understand (`code`, the API's `detail`, PostgREST's `message`). Everything else is
 * answered as Node does without a listener (400, 408, 413), and nothing is written over a
 * response already under way.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own condition: no response in flight on this socket, or none of it written yet.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (socket.writable && (inFlight === undefined || inFlight === null || inFlight.headersSent !== true)) {
      switch (error.code) {
        case 'HPE_HEADER_OVERFLOW':
          socket.write(
            'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
              `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(HEADERS_TOO_LARGE)}\r\n\r\n${HEADERS_TOO_LARGE}`,
          );
          break;
        case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
          socket.write(plain('413 Payload Too Large'));
          break;
        case 'ERR_HTTP_REQUEST_TIMEOUT':
          socket.write(plain('408 Request Timeout'));
          break;
        case 'ECONNRESET':
          break; // the client is gone
        default:
          socket.write(plain('400 Bad Request'));
      }
    }
    socket.destroy();
  });
}
