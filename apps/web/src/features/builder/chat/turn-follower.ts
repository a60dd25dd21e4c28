import type { Timers } from '../../../app/ports';
import type { Logger } from '../../../app/ui-ports';
import type { AiApi, TurnHistoryDto } from '../../../api/ai.api';

/** How often a reloaded chat reads the turn list while a turn it did not start is under way. */
export const FOLLOW_INTERVAL_MS = 1000;

/** A turn the server is still working on (docs/ai-api.md statuses). */
export const isUnderWay = (status: string): boolean => status === 'queued' || status === 'running';

/**
 * After a reload (F5 in the middle of a turn) the chat has no stream for the turn under way: it
 * reads the project's turn list every FOLLOW_INTERVAL_MS until that turn has ended, then hands
 * over its stored end (docs/decisions.md, "A reloaded chat follows its turn by polling").
 * A failed read is logged and tried again at the next tick.
 */
export function followTurn(
  deps: { readonly ai: Pick<AiApi, 'history'>; readonly timers: Timers; readonly logger: Logger },
  projectId: string,
  turnId: string,
  ended: (turn: TurnHistoryDto | null) => void,
): () => void {
  let reading = false;
  let done = false;
  const stop = deps.timers.every(FOLLOW_INTERVAL_MS, () => {
    if (reading || done) return;
    reading = true;
    void deps.ai
      .history(projectId)
      .then((turns) => {
        if (done) return;
        const turn = turns.find((t) => t.id === turnId) ?? null;
        if (turn !== null && isUnderWay(turn.status)) return;
        // Ended (or forgotten: a turn refused at its first debit is not kept).
        done = true;
        stop();
        ended(turn);
      })
      .catch((error: unknown) => deps.logger.warn('Following the turn under way failed', error))
      .finally(() => {
        reading = false;
      });
  });
  return () => {
    done = true;
    stop();
  };
}
