import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { AiMessage } from '../ai-assistant.port.js';
import { fitHistory, fitTree, historyChars, HISTORY_MESSAGE_CHARS, listingChars } from './turn-context.js';

const path = fc.stringMatching(/^[a-z][a-z0-9/._-]{0,80}$/);
const message = fc.record({ role: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'), content: fc.string({ maxLength: 9000 }) });

describe('the context budget (properties)', () => {
  it('fitTree: within the budget (room for its closing line aside), the kept paths in their order, whole when it fits', () => {
    fc.assert(
      fc.property(fc.array(path, { maxLength: 400 }), fc.integer({ min: 60, max: 20_000 }), (tree, budget) => {
        const fitted = fitTree(tree, budget);
        expect(listingChars(fitted)).toBeLessThanOrEqual(budget);
        if (listingChars(tree) <= budget) {
          expect(fitted).toEqual(tree);
          return;
        }
        const kept = fitted.slice(0, -1);
        expect(fitted.at(-1)).toBe(`… and ${tree.length - kept.length} more file${tree.length - kept.length === 1 ? '' : 's'} not listed`);
        // A subsequence of the tree, in order.
        let at = 0;
        for (const p of kept) {
          at = tree.indexOf(p, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at += 1;
        }
      }),
    );
  });

  it('fitHistory: within the budget, the newest messages, each cut to its cap, starting with a person’s message', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 30 }), fc.integer({ min: 0, max: 60_000 }), (history: AiMessage[], budget) => {
        const fitted = fitHistory(history, budget);
        expect(historyChars(fitted)).toBeLessThanOrEqual(budget);
        for (const m of fitted) expect(m.content.length).toBeLessThanOrEqual(HISTORY_MESSAGE_CHARS);
        if (fitted.length > 0) expect(fitted[0]?.role).toBe('user');
        // The fitted messages are the last ones of the history (same roles, same starts).
        const tail = history.slice(history.length - fitted.length);
        expect(fitted.map((m) => m.role)).toEqual(tail.map((m) => m.role));
        fitted.forEach((m, i) => expect((tail[i] as AiMessage).content.startsWith(m.content.replace(/…$/, ''))).toBe(true));
      }),
    );
  });
});
