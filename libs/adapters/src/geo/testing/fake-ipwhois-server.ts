import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface PlacedAddress {
  readonly countryCode: string;
  readonly country: string;
  readonly city: string;
}

/**
 * A local stand-in for ipwho.is (https://ipwho.is/{ip}), in its wire format: 200 with
 * `{ ip, success: true, type, country, country_code, city, … }` for a known address, and
 * `{ ip, success: false, message }` for one it cannot place (ipwho.is answers 'Reserved range'
 * for loopback and private addresses). `anyAddress` places every unknown address (tests reach the
 * API from 127.0.0.1); `failWith` answers an HTTP status or an unsuccessful reply instead.
 */
export class FakeIpWhoIsServer {
  readonly requests: Array<{ path: string; accept: string | undefined }> = [];
  private readonly places = new Map<string, PlacedAddress>();
  anyAddress: PlacedAddress | null = null;
  failWith: { status: number } | 'unsuccessful' | null = null;
  private server: Server | null = null;

  /** The GEOLOCATION_URL to configure: `http://127.0.0.1:<port>/{ip}`. */
  get urlTemplate(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('FakeIpWhoIsServer is not started');
    return `http://127.0.0.1:${address.port}/{ip}`;
  }

  place(ip: string, countryCode: string, country: string, city: string): this {
    this.places.set(ip, { countryCode, country, city });
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      this.requests.push({ path, accept: req.headers.accept });
      const ip = decodeURIComponent(path.slice(1));
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      if (this.failWith === 'unsuccessful') return send(200, { ip, success: false, message: 'Invalid IP address' });
      if (this.failWith !== null) return send(this.failWith.status, { message: 'Service unavailable' });
      const place = this.places.get(ip) ?? this.anyAddress;
      if (place === null) return send(200, { ip, success: false, message: 'Reserved range' });
      send(200, {
        ip,
        success: true,
        type: ip.includes(':') ? 'IPv6' : 'IPv4',
        continent: place.countryCode === 'IN' ? 'Asia' : 'North America',
        country: place.country,
        country_code: place.countryCode,
        region: '',
        city: place.city,
        timezone: { id: place.countryCode === 'IN' ? 'Asia/Kolkata' : 'America/Los_Angeles' },
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
