import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's tag and GA4's collection endpoint, in their wire format:
 * `GET /gtag/js?id=G-…` serves a small gtag.js that reads `window.dataLayer` (the `arguments`
 * objects gtag() queued, and every later push), remembers the `config` measurement id and sends
 * each `event` as a GA4 Measurement Protocol hit: `POST /g/collect?v=2&tid=G-…&cid=…&en=<name>`
 * with `ep.<key>` for text parameters, `epn.<key>` for numbers, `cu` for the currency and `pr1…`
 * for items. Lives with the e2e tests (it drives a real browser; scope:e2e imports no libs).
 */
export class FakeGa4Server {
  /** The measurement ids gtag.js was requested for, in order. */
  readonly scriptRequests: string[] = [];
  /** Every collect hit's query parameters. */
  readonly hits: Record<string, string>[] = [];
  private server: Server | null = null;

  get origin(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('FakeGa4Server is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  hitsNamed(en: string): Record<string, string>[] {
    return this.hits.filter((h) => h['en'] === en);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && url.pathname === '/gtag/js') {
        this.scriptRequests.push(url.searchParams.get('id') ?? '');
        res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(gtagJs(this.origin));
        return;
      }
      if (url.pathname === '/g/collect') {
        this.hits.push(Object.fromEntries(url.searchParams));
        req.resume();
        res.writeHead(204, { 'access-control-allow-origin': '*' });
        res.end();
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The fake tag: GA4's collect hits for the commands in window.dataLayer. */
function gtagJs(origin: string): string {
  return `(function () {
  var collect = ${JSON.stringify(`${origin}/g/collect`)};
  var dataLayer = (window.dataLayer = window.dataLayer || []);
  var tid = null;
  var waiting = [];
  var cid = String(Math.floor(Math.random() * 1e9)) + '.' + Math.floor(Date.now() / 1000);
  function hit(en, params) {
    var q = new URLSearchParams({ v: '2', tid: tid, cid: cid, en: en, dl: location.href });
    Object.keys(params || {}).forEach(function (key) {
      var value = params[key];
      if (key === 'items' && Array.isArray(value)) {
        value.forEach(function (item, i) { q.set('pr' + (i + 1), 'id' + item.item_id + '~nm' + item.item_name + '~pr' + item.price + '~qt' + item.quantity); });
      } else if (key === 'currency') q.set('cu', String(value));
      else if (typeof value === 'number') q.set('epn.' + key, String(value));
      else if (value !== null && value !== undefined && typeof value !== 'object') q.set('ep.' + key, String(value));
    });
    fetch(collect + '?' + q.toString(), { method: 'POST', mode: 'no-cors', keepalive: true });
  }
  function run(command) {
    var args = Array.prototype.slice.call(command);
    if (args[0] === 'config') { tid = args[1]; waiting.splice(0).forEach(run); }
    else if (args[0] === 'event') { if (tid === null) waiting.push(command); else hit(args[1], args[2]); }
  }
  dataLayer.forEach(run);
  var push = dataLayer.push;
  dataLayer.push = function () { Array.prototype.forEach.call(arguments, run); return push.apply(dataLayer, arguments); };
})();`;
}
