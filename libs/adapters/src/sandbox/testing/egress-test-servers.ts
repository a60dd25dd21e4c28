import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A folder for a proxy's socket: mkdtemp makes it 0700. */
export async function tempSocketDir(): Promise<{ dir: string; close: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kiln-egress-'));
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}

function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A TCP server on loopback answering every line `echo:<line>`: the fake registry of the tests. */
export async function echoServer(): Promise<{ port: number; readonly connections: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        socket.write(`echo:${pending.slice(0, end)}\n`);
        pending = pending.slice(end + 1);
      }
    });
  });
  const port = await listen(server);
  return {
    port,
    get connections() {
      return connections;
    },
    close: () => closeServer(server, sockets),
  };
}

/** A raw exchange with the proxy: what it answered to `head`, and the socket (a tunnel when 200). */
export interface ProxyAnswer {
  readonly status: number;
  readonly body: string;
  readonly socket: Socket;
}

/**
 * Sends a request head (`CONNECT host:port`, `GET http://…`) to the proxy's Unix socket and reads
 * the answer's status line and headers (and, when it closes, its body).
 */
export function proxyRequest(socketPath: string, head: string): Promise<ProxyAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received.toString('latin1'))?.[1] ?? 0);
      if (status === 200) {
        socket.off('data', onData);
        socket.off('end', onEnd);
        if (received.length > end + 4) socket.unshift(received.subarray(end + 4));
        resolve({ status, body: '', socket });
      }
    };
    const onEnd = () => {
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: end < 0 ? '' : text.slice(end + 4), socket });
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', reject);
    socket.write(head);
  });
}

/** `CONNECT target` as npm's proxy agent sends it. */
export function connectHead(target: string): string {
  return `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`;
}

/** Writes one line into a tunnel to the echo server and reads its answer. */
export function echoThrough(socket: Socket, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.endsWith('\n')) return;
      socket.off('data', onData);
      resolve(text.trimEnd());
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`${line}\n`);
  });
}
