import type { SandboxInfo } from '../sandbox/sandbox-lifecycle.port.js';

/** SPEC §7, §9: apps run in Singapore unless told otherwise. */
export const DEFAULT_HOSTING_REGION = 'sin';

export interface CreateHostedAppOptions {
  /** The provider's region code; default DEFAULT_HOSTING_REGION ('sin'). */
  readonly region?: string;
  /** True for the published app (public URL), false for the builder's preview app. */
  readonly publish: boolean;
  /** The starter template to create the app from; the provider's default when omitted. */
  readonly templateId?: string;
}

export interface DomainCertificate {
  readonly domain: string;
  /** 'pending' until the provider has issued the certificate (DNS must point at the app first). */
  readonly status: 'pending' | 'issued';
}

export interface DnsCheck {
  /** The domain resolves to the expected target. */
  readonly verified: boolean;
  /** What the domain resolves to now, to show people what to change. */
  readonly found: readonly string[];
}

/** The state of the machine an app runs on. 'missing' means the app has no machine. */
export type MachineState = 'starting' | 'running' | 'stopped' | 'missing';

/**
 * Where generated apps run: the preview app behind the builder and the published app behind a
 * project's domain (SPEC §7 Hosted apps). Methods reject on provider failure.
 */
export interface HostingProvider {
  /**
   * Creates the project's app (or finds it). The answer has the same shape as the builder's
   * sandbox info; for a published app `url` is the published URL.
   */
  createProject(projectId: string, options: CreateHostedAppOptions): Promise<SandboxInfo>;
  destroyApp(projectId: string): Promise<void>;
  /** Requests a TLS certificate for a custom domain of the project's published app. */
  addCertificate(projectId: string, domain: string): Promise<DomainCertificate>;
  restartApp(projectId: string, options: { readonly publish: boolean }): Promise<void>;
  /** Checks that `domain` points at `expectedTarget` (a CNAME target or address). */
  verifyDns(domain: string, expectedTarget: string): Promise<DnsCheck>;
  /** A picture of the running app, as an image URL (used for project cards). */
  takeScreenshot(projectId: string): Promise<{ readonly imageUrl: string }>;
  machineStatus(projectId: string): Promise<MachineState>;
}
