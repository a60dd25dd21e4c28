import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@nestjs/common';
import {
  CaddyCertificateAuthority,
  CaddyEdge,
  ChromiumSiteScreenshotter,
  LocalHostingProvider,
  type LocalSandboxHost,
  NoTlsCertificateAuthority,
  NodeDnsResolver,
  StaticSiteServer,
  wildcardSubjectFor,
} from '@kiln/adapters';
import type { CertificateAuthority } from '@kiln/domain';
import type { AppConfig } from '../config.js';
import type { HostingAdapters } from './hosting.module.js';
import { createPublishedUrls, ownHostsOf } from './published-urls.js';

/**
 * The hosting adapters `npm start` and production run on (docs/hosting.md): releases built in
 * the project's sandbox and kept under DATA_DIR/hosting, served by the API's own server by Host
 * (and by Caddy in front when HOSTING_EDGE=caddy, which then also gets the certificates), DNS
 * through DNS_SERVERS, screenshots by Debian's Chromium.
 */
export async function productionHosting(config: AppConfig, sandboxHost: LocalSandboxHost, log: Logger): Promise<HostingAdapters> {
  const hostingRoot = join(config.dataDir, 'hosting');
  const urls = createPublishedUrls(config.hosting, ownHostsOf([config.publicApiUrl, ...config.webOrigins, config.previewUrlTemplate]));
  const sites: StaticSiteServer = new StaticSiteServer({
    hostingRoot,
    // Kiln's subdomains always (an unknown one gets the "No site here" page, never Kiln's app);
    // a custom domain while a release is pointed at it (only verified domains ever are).
    isSiteHost: (host) => urls.slugOf(host) !== null || sites.serves(host),
  });
  // Each capture in a jailed Chromium reaching only the site's release (docs/security.md
  // "Screenshots"); without isolation production refuses to capture, development warns loudly.
  const screenshotter = new ChromiumSiteScreenshotter({
    hostingRoot,
    executablePath: config.hosting.chromiumPath,
    unisolated: config.nodeEnv === 'production' ? 'refuse' : 'warn',
    onWarning: (message) => log.warn(message),
  });
  screenshotter.isolation().then(
    (status) =>
      status.isolated
        ? log.log(`Screenshots isolated (bubblewrap, a jailed Chromium per capture); limits: ${status.limits ?? 'none'}`)
        : log.warn(`Screenshots are not isolated: ${status.reason}${config.nodeEnv === 'production' ? ' (captures are refused)' : ''}`),
    () => undefined,
  );
  return {
    provider: new LocalHostingProvider({ hostingRoot, builder: sandboxHost }),
    dns: new NodeDnsResolver({ servers: config.hosting.dnsServers }),
    certificates: await certificateAuthority(config, hostingRoot, urls.hostFor('x'), log),
    screenshotter,
    siteServer: sites,
    close: () => screenshotter.close(),
  };
}

async function certificateAuthority(config: AppConfig, hostingRoot: string, sampleSiteHost: string, log: Logger): Promise<CertificateAuthority> {
  const edge = config.hosting.edge;
  if (edge.kind === 'embedded') return new NoTlsCertificateAuthority();
  const caddy = new CaddyEdge({
    adminUrl: edge.adminUrl,
    hostingRoot,
    httpPort: edge.httpPort,
    httpsPort: edge.httpsPort,
    askUrl: edge.askUrl,
    redirectHttp: edge.redirectHttp,
    ...(edge.storageDir === null ? {} : { storageDir: edge.storageDir }),
    ...(edge.wildcard === null ? {} : { wildcard: { subjects: [wildcardSubjectFor(sampleSiteHost)], ...edge.wildcard } }),
    acme: {
      ...(edge.acmeDirectoryUrl === null ? {} : { directoryUrl: edge.acmeDirectoryUrl }),
      ...(edge.acmeEmail === null ? {} : { email: edge.acmeEmail }),
      ...(edge.acmeCaRootFile === null ? {} : { caRootFile: edge.acmeCaRootFile }),
    },
  });
  // Caddy keeps serving what it had if this fails; certificates then fail with a reason until it answers.
  await caddy.load().then(
    () => log.log(`Caddy configured through ${edge.adminUrl}: published sites on :${edge.httpPort}/:${edge.httpsPort}`),
    (error: unknown) => log.error(`Configuring Caddy failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const trustedRoots = edge.acmeIssuerRootFile === null ? undefined : await readFile(edge.acmeIssuerRootFile, 'utf8');
  return new CaddyCertificateAuthority({ edgeHost: edge.tlsHost, edgePort: edge.httpsPort, ...(trustedRoots === undefined ? {} : { trustedRoots }) });
}
