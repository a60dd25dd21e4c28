import { makeAutoObservable, runInAction } from 'mobx';
import type { Logger } from '../../../app/ui-ports';
import type { UsageApi } from '../../../api/usage.api';

/** One credit for a message that runs as one task; a plan costs one per task (docs/ai-api.md). */
export const CREDITS_PER_TASK = 1;

export function creditsWord(n: number): string {
  return n === 1 ? 'credit' : 'credits';
}

/**
 * The credits left for the chat's cost line: loaded from the usage stats when the builder
 * opens, then set from each turn's `credits` event (the server's count after a debit or refund).
 */
export class CreditsStore {
  /** null until known. */
  remaining: number | null = null;
  unlimited = false;
  private loads = 0;

  constructor(
    private readonly usage: UsageApi,
    private readonly logger: Logger,
  ) {
    makeAutoObservable<CreditsStore, 'usage' | 'logger' | 'loads'>(this, { usage: false, logger: false, loads: false }, { autoBind: true });
  }

  async load(): Promise<void> {
    const attempt = ++this.loads;
    try {
      const stats = await this.usage.stats();
      runInAction(() => {
        if (attempt !== this.loads) return;
        this.unlimited = stats.is_unlimited_prompts || stats.is_limitless_plan;
        this.remaining = stats.credits_remaining;
      });
    } catch (error) {
      this.logger.warn('Error loading usage stats', error);
    }
  }

  /** A turn's `credits` event. */
  set(remaining: number): void {
    this.loads += 1; // a load still under way would be older than this
    this.remaining = Math.max(0, Math.floor(remaining));
  }

  /** 'No credits left', '1 credit left', '4 credits left', 'Unlimited credits'; null while unknown. */
  get leftText(): string | null {
    if (this.unlimited) return 'Unlimited credits';
    if (this.remaining === null) return null;
    if (this.remaining === 0) return 'No credits left';
    return `${this.remaining} ${creditsWord(this.remaining)} left`;
  }

  get exhausted(): boolean {
    return !this.unlimited && this.remaining !== null && this.remaining < CREDITS_PER_TASK;
  }
}
