import { describe, expect, it } from '@jest/globals';
import { vectorIndexContract } from './contracts/vector-index.contract.js';
import { InMemoryVectorIndex } from './in-memory-vector-index.js';

vectorIndexContract('in memory', async () => ({ index: new InMemoryVectorIndex() }));

// Every step yields a few microtasks first, so concurrent calls interleave.
const yieldSome = async () => {
  for (let i = 0; i < 3; i += 1) await Promise.resolve();
};
vectorIndexContract('in memory, interleaved', async () => ({ index: new InMemoryVectorIndex(yieldSome) }));

describe('InMemoryVectorIndex scoring (BM25)', () => {
  it('weighs a rare term above a common one', async () => {
    const index = new InMemoryVectorIndex();
    await index.fullReindex('p', [
      { path: 'a.ts', content: 'button button rare' },
      { path: 'b.ts', content: 'button button button' },
      { path: 'c.ts', content: 'button' },
    ]);
    const [first] = await index.query('p', 'button rare');
    expect(first?.path).toBe('a.ts');
  });
});
