import type { Server } from 'node:http';
import { type HostHandler, installHostDispatch } from '../serving/install-host-dispatch.js';
import type { PreviewProxy } from './preview-proxy.js';

/** The preview proxy as a host handler: preview hosts (valid or not) are its own, websockets included. */
export function previewHostHandler(proxy: PreviewProxy): HostHandler {
  return {
    matches: (req) => proxy.match(req).kind !== 'app',
    handleRequest: (req, res) => {
      const match = proxy.match(req);
      if (match.kind !== 'app') void proxy.handleRequest(req, res, match);
    },
    handleUpgrade: (req, socket, head) => {
      const match = proxy.match(req);
      if (match.kind !== 'app') void proxy.handleUpgrade(req, socket, head, match);
    },
  };
}

/**
 * Puts the preview proxy (and any other host handlers, such as the published-site server) in
 * front of everything on the HTTP server (serving/install-host-dispatch.ts): a request or
 * websocket upgrade whose Host is a preview host goes to the proxy and is never seen by Express
 * (helmet, CORS, Nest's routes, the web app) or by any other upgrade listener.
 */
export function installPreviewProxy(server: Server, proxy: PreviewProxy, others: readonly HostHandler[] = []): void {
  installHostDispatch(server, [previewHostHandler(proxy), ...others]);
}
