import { createConnection, createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/** Whether `port` on loopback can be listened on right now. */
function canListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port nobody listens on: from `range` (inclusive) when given, else one the system
 * picks. The port is released before it is answered, so the caller must still handle losing a
 * race for it (the dev server is started with strictPort and retried on another port).
 */
export async function allocateLoopbackPort(taken: ReadonlySet<number>, range?: readonly [number, number]): Promise<number> {
  if (range === undefined) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = await canListen(0);
      if (port !== null && !taken.has(port)) return port;
    }
    throw new Error('No free loopback port');
  }
  const [from, to] = range;
  const span = to - from + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = from + ((offset + i) % span);
    if (!taken.has(port) && (await canListen(port)) !== null) return port;
  }
  throw new Error(`No free loopback port in ${from}-${to}`);
}

/** Whether something accepts TCP connections on loopback `port`. */
export function acceptsConnections(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: LOOPBACK, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
