import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CaddyCertificateAuthority } from './caddy-certificate-authority.adapter.js';
import { NoTlsCertificateAuthority } from './no-tls-certificate-authority.adapter.js';
import { makeCertificate } from './testing/caddy-process.js';
import { freePort, requireBinaries } from './testing/test-processes.js';

const sockets = new Set<Socket>();
const listen = async <S extends TcpServer | Server>(server: S): Promise<number> => {
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
};

/** The edge's answers judged without Caddy: TLS servers that present what a broken edge would. */
describe('CaddyCertificateAuthority', () => {
  let dir: string;
  let ca: string;
  let tlsServer: Server;
  let tlsPort: number;
  let silent: TcpServer;
  let silentPort: number;

  beforeAll(async () => {
    requireBinaries('openssl');
    dir = mkdtempSync(path.join(tmpdir(), 'kiln-ca-adapter-'));
    const cert = makeCertificate(dir, 'shop', ['shop.example.test']);
    ca = readFileSync(cert.caFile, 'utf8');
    tlsServer = createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (socket) => socket.end());
    tlsPort = await listen(tlsServer);
    // Accepts the connection and never answers the handshake: an edge stuck on a slow CA.
    silent = createTcpServer(() => undefined);
    silentPort = await listen(silent);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([tlsServer, silent].map((s) => new Promise((r) => s?.close(r))));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers issued for a certificate that covers the host and chains to the trusted root', async () => {
    const authority = new CaddyCertificateAuthority({ edgePort: tlsPort, trustedRoots: ca });
    expect(await authority.requestCertificate('shop.example.test')).toEqual({ kind: 'issued' });
    expect(await authority.requestCertificate('SHOP.example.test')).toEqual({ kind: 'issued' });
  });

  it('answers failed for a certificate for another host, or one not chaining to the trusted roots', async () => {
    const trusted = new CaddyCertificateAuthority({ edgePort: tlsPort, trustedRoots: ca });
    expect(await trusted.requestCertificate('other.example.test')).toEqual({ kind: 'failed', reason: 'The certificate presented does not cover other.example.test.' });
    const publicRoots = new CaddyCertificateAuthority({ edgePort: tlsPort });
    expect(await publicRoots.requestCertificate('shop.example.test')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^The certificate presented for shop.example.test is not trusted \([A-Z_]+\)\.$/) });
  });

  it('answers failed when the edge is down or never finishes the handshake (its own timeout, well within the test’s)', async () => {
    const down = new CaddyCertificateAuthority({ edgePort: await freePort() });
    expect(await down.requestCertificate('shop.example.test')).toEqual({ kind: 'failed', reason: 'The TLS edge is not reachable.' });
    const stuck = new CaddyCertificateAuthority({ edgePort: silentPort, timeoutMs: 300 });
    expect(await stuck.requestCertificate('shop.example.test')).toEqual({ kind: 'failed', reason: 'The TLS edge did not finish getting a certificate in time.' });
  });

  it.each(['127.0.0.1', '::1', '', '../etc', 'a/b.example.test', 'shop.example.test.', `${'a'.repeat(250)}.test`, 'exa mple.test'])('refuses %j without connecting', async (host) => {
    const authority = new CaddyCertificateAuthority({ edgePort: silentPort, timeoutMs: 60_000 });
    expect(await authority.requestCertificate(host)).toEqual({ kind: 'failed', reason: 'This is not a host name a certificate can be issued for.' });
  });
});

describe('NoTlsCertificateAuthority', () => {
  it('answers not-needed: the embedded server serves plain HTTP', async () => {
    expect(await new NoTlsCertificateAuthority().requestCertificate()).toEqual({ kind: 'not-needed' });
  });
});
