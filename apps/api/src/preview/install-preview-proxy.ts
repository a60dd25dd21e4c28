import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PreviewProxy } from './preview-proxy.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Puts the preview proxy in front of everything on the HTTP server: a request or websocket
 * upgrade whose Host is a preview host goes to the proxy and is never seen by Express (helmet,
 * CORS, Nest's routes, the web app) or by any other upgrade listener; every other request goes to
 * the listeners that were there before. Call it after the app is initialised and before it
 * listens; listeners added to the server later are not shielded.
 */
export function installPreviewProxy(server: Server, proxy: PreviewProxy): void {
  const appRequestListeners = server.listeners('request') as RequestListener[];
  const appUpgradeListeners = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = proxy.match(req);
    if (match.kind === 'app') {
      for (const listener of appRequestListeners) listener.call(server, req, res);
      return;
    }
    void proxy.handleRequest(req, res, match);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = proxy.match(req);
    if (match.kind !== 'app') {
      void proxy.handleUpgrade(req, socket, head, match);
      return;
    }
    // Without a listener Node would have closed the socket; do the same.
    if (appUpgradeListeners.length === 0) socket.destroy();
    for (const listener of appUpgradeListeners) listener.call(server, req, socket, head);
  });
}
