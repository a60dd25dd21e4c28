import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DeliverMarketingOutbox } from '@kiln/domain';
import { isDatabaseUnavailable } from '@kiln/adapters';
import type { AppConfig } from '../config.js';
import { APP_CONFIG } from '../tokens.js';

/**
 * Runs DeliverMarketingOutbox every MARKETING_DELIVERY_INTERVAL_MS (off when 0). One tick at a
 * time in this process; other processes share the work through the outbox's leases.
 */
@Injectable()
export class MarketingWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketingWorker');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    @Inject(DeliverMarketingOutbox) private readonly deliver: DeliverMarketingOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.marketing.deliveryIntervalMs;
    if (every <= 0) return;
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One delivery round, skipped while the previous one still runs. */
  tick(): Promise<void> {
    this.running ??= this.deliver
      .execute()
      .then(() => undefined)
      .catch((error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        // The outbox itself is in the database: an outage just means the next tick tries again.
        if (isDatabaseUnavailable(error)) this.logger.warn(`Marketing delivery skipped, database unavailable: ${text}`);
        else this.logger.error(`Marketing delivery round failed: ${text}`);
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
