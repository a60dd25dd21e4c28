// The embedded published-site server on its own (StaticSiteServer of @kiln/adapters behind the
// same host dispatch the API installs), for `npm run bench publish` when the API's publish route is
// not there: `node bench/publish/site-server.mjs <hostingRoot> <port>`; prints `listening` once up.
import http from 'node:http';
import { StaticSiteServer } from '@kiln/adapters';

const [hostingRoot, port] = process.argv.slice(2);
const sites = new StaticSiteServer({ hostingRoot, isSiteHost: (host) => host.endsWith('.apps.localhost') });
const server = http.createServer((req, res) => {
  if (sites.matches(req)) sites.handle(req, res);
  else res.writeHead(404).end();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
