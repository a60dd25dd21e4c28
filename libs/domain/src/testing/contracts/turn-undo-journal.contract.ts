import { describe, expect, it } from '@jest/globals';
import type { TurnUndoEntry, TurnUndoJournal } from '../../ai/engine/turn-undo-journal.port.js';

const keyOf = (e: TurnUndoEntry) => (e.kind === 'every_file' ? 'every_file' : `${e.kind}:${e.path}`);
/** Entries in one order, whatever order the adapter answers in. */
const sorted = (entries: readonly TurnUndoEntry[]) => [...entries].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));

const file = (path: string, before: string | null): TurnUndoEntry => ({ kind: 'file', path, before });
const folder = (path: string): TurnUndoEntry => ({ kind: 'folder', path });
const EVERY_FILE: TurnUndoEntry = { kind: 'every_file' };

/**
 * The TurnUndoJournal contract: what is recorded is read back exactly (text, empty text and
 * "did not exist" kept apart; a file and a folder may share a path), the first pre-image of a
 * path wins (across calls, within a call, and between concurrent calls), turns are kept apart,
 * and clear forgets one turn. The in-memory and the PostgreSQL adapters' specs call it.
 */
export function turnUndoJournalContract(name: string, make: () => Promise<TurnUndoJournal>): void {
  describe(`TurnUndoJournal contract: ${name}`, () => {
    it('reads back what was recorded, in any order', async () => {
      const journal = await make();
      expect(await journal.entries('t1')).toEqual([]);
      await journal.record('t1', 'p1', [folder('src'), folder('src/components'), file('src/App.tsx', 'export const App = 1;\n'), file('src/new.ts', null)]);
      await journal.record('t1', 'p1', [file('README.md', ''), EVERY_FILE]);
      expect(sorted(await journal.entries('t1'))).toEqual(
        sorted([folder('src'), folder('src/components'), file('src/App.tsx', 'export const App = 1;\n'), file('src/new.ts', null), file('README.md', ''), EVERY_FILE]),
      );
    });

    it('keeps the text exactly: empty text is not "did not exist", unusual characters survive', async () => {
      const journal = await make();
      const texts = ['', ' ', 'line\r\nline\n', 'naïve – 日本語 🎉', 'nul \u0000 inside', "quotes ' \" \\ and $1", 'x'.repeat(300_000)];
      await journal.record('t1', 'p1', texts.map((text, i) => file(`f${i}.txt`, text)));
      await journal.record('t1', 'p1', [file('gone.txt', null)]);
      const read = new Map((await journal.entries('t1')).map((e) => [keyOf(e), e]));
      texts.forEach((text, i) => expect(read.get(`file:f${i}.txt`)).toEqual(file(`f${i}.txt`, text)));
      expect(read.get('file:gone.txt')).toEqual(file('gone.txt', null));
    });

    it('a file and a folder may share a path (a folder the turn replaced by a file)', async () => {
      const journal = await make();
      await journal.record('t1', 'p1', [folder('src/lib'), file('src/lib', null)]);
      expect(sorted(await journal.entries('t1'))).toEqual(sorted([folder('src/lib'), file('src/lib', null)]));
    });

    it('the first pre-image of a path wins, across calls and within one call', async () => {
      const journal = await make();
      await journal.record('t1', 'p1', [file('a.ts', 'first'), file('b.ts', null), folder('src')]);
      await journal.record('t1', 'p1', [file('a.ts', 'second'), file('b.ts', 'written by the turn'), folder('src'), file('c.ts', 'c')]);
      await journal.record('t1', 'p1', [file('d.ts', null), file('d.ts', 'later'), EVERY_FILE, EVERY_FILE]);
      expect(sorted(await journal.entries('t1'))).toEqual(sorted([file('a.ts', 'first'), file('b.ts', null), folder('src'), file('c.ts', 'c'), file('d.ts', null), EVERY_FILE]));
    });

    it('concurrent records of one path keep exactly one of them, whole', async () => {
      const journal = await make();
      await Promise.all(
        ['one', 'two', 'three'].map((v) => journal.record('t1', 'p1', [file('a.ts', v), file(`only-${v}.ts`, v), file('b.ts', v)])),
      );
      const entries = await journal.entries('t1');
      expect(entries).toHaveLength(5);
      const a = entries.find((e) => keyOf(e) === 'file:a.ts');
      expect(['one', 'two', 'three'].map((v) => file('a.ts', v))).toContainEqual(a);
      for (const v of ['one', 'two', 'three']) expect(entries).toContainEqual(file(`only-${v}.ts`, v));
    });

    it('keeps turns apart; clear forgets one turn only; an unknown turn has no entries', async () => {
      const journal = await make();
      await journal.record('t1', 'p1', [file('a.ts', 'of t1')]);
      await journal.record('t2', 'p1', [file('a.ts', 'of t2')]);
      await journal.record('t3', 'p2', [file('a.ts', null)]);
      await journal.record('t4', 'p2', []);
      expect(await journal.entries('t2')).toEqual([file('a.ts', 'of t2')]);
      await journal.clear('t1');
      expect(await journal.entries('t1')).toEqual([]);
      expect(await journal.entries('t2')).toEqual([file('a.ts', 'of t2')]);
      expect(await journal.entries('t3')).toEqual([file('a.ts', null)]);
      expect(await journal.entries('t4')).toEqual([]);
      await journal.clear('t1');
      await journal.clear('never-recorded');
      // A cleared turn may record again (nothing of before is left).
      await journal.record('t1', 'p1', [file('a.ts', 'again')]);
      expect(await journal.entries('t1')).toEqual([file('a.ts', 'again')]);
    });

    it('records a large batch (every file of a project before a command) in one call', async () => {
      const journal = await make();
      const batch = [
        ...Array.from({ length: 300 }, (_, i) => folder(`src/f${i}`)),
        ...Array.from({ length: 2_500 }, (_, i) => file(`src/f${i % 300}/file-${i}.ts`, `export const n = ${i};\n`)),
        EVERY_FILE,
      ];
      await journal.record('t1', 'p1', batch);
      expect(sorted(await journal.entries('t1'))).toEqual(sorted(batch));
    });
  });
}
