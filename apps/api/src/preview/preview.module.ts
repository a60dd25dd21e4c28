import { randomBytes } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, Module } from '@nestjs/common';
import type { Clock, SandboxDevServer } from '@kiln/domain';
import type { AppConfig } from '../config.js';
import { APP_CONFIG, CLOCK, SANDBOX_HOST } from '../tokens.js';
import { PreviewProxy } from './preview-proxy.js';
import { PreviewTokens } from './preview-tokens.js';
import { type PreviewUrls, parsePreviewUrlTemplate } from './preview-url.js';

export const PREVIEW_URLS = Symbol('PreviewUrls');

/** PREVIEW_URL_TEMPLATE, validated by loadConfig already. */
export function previewUrls(config: AppConfig): PreviewUrls {
  const parsed = parsePreviewUrlTemplate(config.previewUrlTemplate, config.port);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

/** Closes the proxied websockets before the HTTP server closes (it waits for open connections). */
@Injectable()
class PreviewShutdown implements BeforeApplicationShutdown {
  constructor(@Inject(PreviewProxy) private readonly proxy: PreviewProxy) {}
  beforeApplicationShutdown(): void {
    this.proxy.closeAll();
  }
}

/**
 * The live preview: the preview origins (PREVIEW_URLS), preview tokens and the reverse proxy.
 * bootstrap.ts installs the proxy on the HTTP server (installPreviewProxy); the sandbox routes
 * mint preview URLs with PreviewTokens. Needs SANDBOX_HOST (SandboxHostModule, global).
 */
@Module({
  providers: [
    { provide: PREVIEW_URLS, useFactory: previewUrls, inject: [APP_CONFIG] },
    {
      provide: PreviewTokens,
      useFactory: (config: AppConfig, clock: Clock, urls: PreviewUrls) =>
        new PreviewTokens(
          config.previewTokenSecret === null ? new Uint8Array(randomBytes(32)) : new TextEncoder().encode(config.previewTokenSecret),
          clock,
          urls,
        ),
      inject: [APP_CONFIG, CLOCK, PREVIEW_URLS],
    },
    {
      provide: PreviewProxy,
      useFactory: (host: SandboxDevServer, urls: PreviewUrls, tokens: PreviewTokens, config: AppConfig) => new PreviewProxy(host, urls, tokens, config.webOrigins),
      inject: [SANDBOX_HOST, PREVIEW_URLS, PreviewTokens, APP_CONFIG],
    },
    PreviewShutdown,
  ],
  exports: [PreviewTokens, PreviewProxy, PREVIEW_URLS],
})
export class PreviewModule {}
