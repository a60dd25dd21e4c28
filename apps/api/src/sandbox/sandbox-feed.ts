import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { DevServerState, DevServerStatus, FilesChangedReason, SandboxDevServer } from '@kiln/domain';
import { PreviewTokens } from '../preview/preview-tokens.js';
import { SANDBOX_HOST } from '../tokens.js';

/** SandboxStatus on the wire (docs/sandbox-api.md). */
export interface SandboxStatusBody {
  readonly status: DevServerStatus;
  readonly message: string;
  readonly url: string;
}

/** One event of a project's realtime feed (`GET /api/sandbox/{id}/events`). */
export type SandboxFeedEvent =
  | { readonly event: 'status'; readonly data: SandboxStatusBody }
  | { readonly event: 'files-changed'; readonly data: { readonly paths: readonly string[]; readonly reason: FilesChangedReason } }
  | { readonly event: 'command-output'; readonly data: { readonly command_id: string; readonly stream: 'stdout' | 'stderr'; readonly text: string } }
  | { readonly event: 'command-exit'; readonly data: { readonly command_id: string; readonly exit_code: number; readonly timed_out: boolean } };

export interface FeedSubscriber {
  readonly send: (event: SandboxFeedEvent) => void;
  /** Called when the API shuts down: end the stream. */
  readonly close: () => void;
}

export const SANDBOX_FEED_OPTIONS = Symbol('SandboxFeedOptions');
export interface SandboxFeedOptions {
  /** The SSE comment heartbeat (SPEC §9: 30 s). */
  readonly heartbeatMs: number;
}
export const DEFAULT_FEED_HEARTBEAT_MS = 30_000;

/**
 * The per-project event bus behind the realtime feed, in this process: the sandbox routes
 * publish file changes and command output, and the host's dev-server events become `status`
 * events for the project's subscribers (only its owner can subscribe). A subscriber that throws
 * is dropped, never the publisher.
 */
@Injectable()
export class SandboxFeed implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('SandboxFeed');
  private readonly subscribers = new Map<string, Set<FeedSubscriber>>();
  private unsubscribeHost: (() => void) | null = null;

  constructor(
    @Inject(SANDBOX_HOST) private readonly host: SandboxDevServer,
    @Inject(PreviewTokens) private readonly tokens: PreviewTokens,
    @Inject(SANDBOX_FEED_OPTIONS) readonly options: SandboxFeedOptions,
  ) {}

  onModuleInit(): void {
    this.unsubscribeHost = this.host.subscribe((event) => {
      if (event.type !== 'dev-server' || !this.subscribers.has(event.sandboxId)) return;
      void this.statusOf(event.sandboxId, event.state).then(
        (data) => this.publish(event.sandboxId, { event: 'status', data }),
        (error: unknown) => this.logger.warn(`Status event for ${event.sandboxId} dropped: ${String(error)}`),
      );
    });
  }

  onModuleDestroy(): void {
    this.unsubscribeHost?.();
    this.unsubscribeHost = null;
  }

  /** Ends every open stream, so the HTTP server can close. */
  beforeApplicationShutdown(): void {
    for (const set of this.subscribers.values()) for (const subscriber of set) safely(subscriber.close);
    this.subscribers.clear();
  }

  subscribe(projectId: string, subscriber: FeedSubscriber): () => void {
    let set = this.subscribers.get(projectId);
    if (set === undefined) {
      set = new Set();
      this.subscribers.set(projectId, set);
    }
    set.add(subscriber);
    return () => {
      const current = this.subscribers.get(projectId);
      current?.delete(subscriber);
      if (current?.size === 0) this.subscribers.delete(projectId);
    };
  }

  /** How many streams are open for a project (tests, diagnostics). */
  subscriberCount(projectId: string): number {
    return this.subscribers.get(projectId)?.size ?? 0;
  }

  publish(projectId: string, event: SandboxFeedEvent): void {
    for (const subscriber of this.subscribers.get(projectId) ?? []) {
      try {
        subscriber.send(event);
      } catch (error) {
        this.logger.warn(`Feed subscriber dropped: ${String(error)}`);
        this.subscribers.get(projectId)?.delete(subscriber);
        safely(subscriber.close);
      }
    }
  }

  /** SandboxStatus for a dev-server state, with a fresh preview URL. */
  async statusOf(projectId: string, state: DevServerState): Promise<SandboxStatusBody> {
    return { status: state.status, message: state.message, url: await this.tokens.authUrl(projectId) };
  }
}

function safely(action: () => void): void {
  try {
    action();
  } catch {
    // already gone
  }
}
