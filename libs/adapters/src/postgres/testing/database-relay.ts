import { connect, createServer, type Socket } from 'node:net';

export interface DatabaseRelay {
  /** `url` with its host and port replaced by the relay's (127.0.0.1:<port>). */
  readonly url: string;
  /**
   * An outage: stops listening (new connections are refused) and drops every open connection
   * (queries in flight fail with "Connection terminated unexpectedly").
   */
  cut(): void;
  /** The end of the outage: listens again on the same port. */
  restore(): Promise<void>;
}

/**
 * For tests of a database outage under a running app: a TCP relay in front of the PostgreSQL at
 * `url` (the shared test server keeps running; only this relay's clients lose it).
 */
export async function startDatabaseRelay(url: string): Promise<DatabaseRelay> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as { port: number }).port;
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  return {
    url: relayed.toString(),
    cut: () => {
      relay.close();
      for (const socket of sockets) socket.destroy();
    },
    restore: () =>
      new Promise<void>((resolve, reject) => {
        relay.once('error', reject);
        relay.listen(port, '127.0.0.1', () => {
          relay.off('error', reject);
          resolve();
        });
      }),
  };
}
