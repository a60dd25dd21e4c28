import { isLive, type OneTimeCode } from '../../auth/one-time-code.js';
import type { ConsumeCodeOutcome, ConsumeCodeRequest, IssueCodeOutcome, OneTimeCodeStore } from '../../auth/one-time-code-store.port.js';
import type { Pause } from '../in-memory-credit-ledger.js';

const keyOf = (code: Pick<OneTimeCode, 'email' | 'purpose'>) => `${code.purpose}\u0000${code.email}`;

/** One-time codes in a Map keyed by (email, purpose); each method is atomic between its pauses. */
export class InMemoryOneTimeCodeStore implements OneTimeCodeStore {
  private readonly rows = new Map<string, OneTimeCode>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async issue(code: OneTimeCode, cooldownMs: number): Promise<IssueCodeOutcome> {
    await this.pause();
    const key = keyOf(code);
    const previous = this.rows.get(key);
    if (previous) {
      const waited = code.issuedAt.getTime() - previous.issuedAt.getTime();
      if (waited < cooldownMs) return { kind: 'cooling_down', retryAfterMs: cooldownMs - waited };
    }
    this.rows.set(key, Object.freeze({ ...code }));
    return { kind: 'issued' };
  }

  async consume(request: ConsumeCodeRequest): Promise<ConsumeCodeOutcome> {
    await this.pause();
    const live = request.candidates.flatMap((candidate) => {
      const row = this.rows.get(keyOf({ email: request.email, purpose: candidate.purpose }));
      return row && isLive(row, request.now, request.maxFailedAttempts) ? [{ row, candidate }] : [];
    });
    const match = live.find(({ row, candidate }) => row.codeHash === candidate.codeHash);
    if (match) {
      const consumed = Object.freeze({ ...match.row, consumedAt: request.now });
      this.rows.set(keyOf(consumed), consumed);
      return { kind: 'accepted', code: consumed };
    }
    for (const { row } of live) this.rows.set(keyOf(row), Object.freeze({ ...row, failedAttempts: row.failedAttempts + 1 }));
    return { kind: 'rejected' };
  }

  async discard(id: string): Promise<void> {
    await this.pause();
    for (const [key, row] of this.rows) if (row.id === id) this.rows.delete(key);
  }

  async purgeExpired(before: Date): Promise<number> {
    await this.pause();
    let purged = 0;
    for (const [key, row] of this.rows) {
      if (row.expiresAt.getTime() < before.getTime()) {
        this.rows.delete(key);
        purged += 1;
      }
    }
    return purged;
  }

  /** Test helper: every stored code. */
  all(): OneTimeCode[] {
    return [...this.rows.values()];
  }
}
