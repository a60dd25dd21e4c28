import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Something answering its own hosts before the app: the preview proxy (preview hosts) and the
 * published-site server (site hosts). `matches` decides by the request's Host only.
 */
export interface HostHandler {
  matches(req: IncomingMessage): boolean;
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  /** A websocket upgrade on one of its hosts; without it such an upgrade is refused (the socket closed). */
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * Puts host handlers in front of everything on the HTTP server: a request or websocket upgrade
 * whose Host a handler matches goes to that handler (the first that matches) and is never seen by
 * Express (helmet, CORS, Nest's routes, the web app) or by any other upgrade listener; every other
 * request goes to the listeners that were there before. Call it after the app is initialised and
 * before it listens; listeners added to the server later are not shielded.
 */
export function installHostDispatch(server: Server, handlers: readonly HostHandler[]): void {
  const appRequestListeners = server.listeners('request') as RequestListener[];
  const appUpgradeListeners = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');
  const handlerFor = (req: IncomingMessage) => handlers.find((h) => h.matches(req));

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const handler = handlerFor(req);
    if (handler !== undefined) {
      handler.handleRequest(req, res);
      return;
    }
    for (const listener of appRequestListeners) listener.call(server, req, res);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const handler = handlerFor(req);
    if (handler !== undefined) {
      if (handler.handleUpgrade !== undefined) handler.handleUpgrade(req, socket, head);
      else socket.destroy();
      return;
    }
    // Without a listener Node would have closed the socket; do the same.
    if (appUpgradeListeners.length === 0) socket.destroy();
    for (const listener of appUpgradeListeners) listener.call(server, req, socket, head);
  });
}

/** The published-site server (StaticSiteServer of @kiln/adapters) as a host handler: no websockets. */
export function siteHostHandler(sites: { matches(req: IncomingMessage): boolean; handle(req: IncomingMessage, res: ServerResponse): void }): HostHandler {
  return {
    matches: (req) => sites.matches(req),
    handleRequest: (req, res) => sites.handle(req, res),
  };
}

/**
 * The data origin of project databases (DataApiServer of @kiln/adapters, docs/databases.md "Data
 * API"): `/rest/v1`, with `/auth/v1` and `/realtime/v1` added through its services; websocket
 * upgrades (realtime) go to its `handleUpgrade`, or are refused without one.
 */
export function dataHostHandler(data: {
  matches(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}): HostHandler {
  return {
    matches: (req) => data.matches(req),
    handleRequest: (req, res) => data.handle(req, res),
    handleUpgrade: (req, socket, head) => (data.handleUpgrade === undefined ? socket.destroy() : data.handleUpgrade(req, socket, head)),
  };
}
