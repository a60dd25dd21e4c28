import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProjectFile } from '../../ai/ai-assistant.port.js';
import { CHUNK_LINES, MAX_INDEXED_FILE_CHARS } from '../../vector/chunking.js';
import { DEFAULT_VECTOR_QUERY_LIMIT, type VectorIndex, type VectorMatch } from '../../vector/vector-index.port.js';

export interface VectorIndexHarness {
  readonly index: VectorIndex;
  close?(): Promise<void>;
}

const file = (path: string, content: string): ProjectFile => ({ path, content });
const paths = (matches: readonly VectorMatch[]) => matches.map((m) => m.path);

/** A file of `lines` lines of filler with `line` (1-based) replaced. */
const longFile = (lines: number, at: number, text: string) =>
  Array.from({ length: lines }, (_, i) => (i + 1 === at ? text : `const filler${i} = compute(${i});`)).join('\n');

const APP = [
  file('src/main.tsx', "import { createRoot } from 'react-dom/client';\nimport { App } from './App';\ncreateRoot(document.getElementById('root')!).render(<App />);\n"),
  file('src/App.tsx', "import { Header } from './components/Header';\nexport function App() {\n  return <Header title=\"Shop\" />;\n}\n"),
  file('src/components/Header.tsx', 'export function Header({ title }: { title: string }) {\n  return <header className="site-header">{title}</header>;\n}\n'),
  file('src/store/useAuthStore.ts', 'export const useAuthStore = create((set) => ({ user_id: null, signIn: () => set({ signedIn: true }) }));\n'),
  file('src/lib/invoice.ts', 'export function invoiceTotal(invoice: Invoice) {\n  // invoice lines, invoice tax\n  return invoice.lines.reduce((sum, l) => sum + l.amount, 0) + invoice.tax;\n}\n'),
  file('src/lib/format.ts', 'export function formatMoney(amount: number) {\n  // used by the invoice page\n  return amount.toFixed(2);\n}\n'),
  file('package.json', '{ "name": "shop", "dependencies": { "react": "19.0.0", "zustand": "5.0.0" } }\n'),
];

/**
 * The VectorIndex contract (SPEC §7 "Vector index", §9 limit 10): a reindexed project answers
 * queries with the files that mention the terms, best first, one entry per file, with a
 * snippet; identifiers are split; paths are searchable; ignored, binary and huge files stay
 * out; partial reindexes replace and drop files and folders; projects are isolated; a template's
 * index is copied; the limit is respected; remove empties a project; concurrent writes to one
 * project neither lose nor mix files.
 */
export function vectorIndexContract(name: string, makeHarness: () => Promise<VectorIndexHarness>): void {
  describe(`VectorIndex contract: ${name}`, () => {
    let h: VectorIndexHarness;
    let n = 0;
    /** A fresh project id (a UUID, like the API's) no other test uses. */
    const newProject = () => {
      n += 1;
      return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    };
    const indexed = async (files: readonly ProjectFile[] = APP) => {
      const id = newProject();
      await h.index.fullReindex(id, files);
      return id;
    };

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    describe('query', () => {
      it('finds the file that mentions a term, with a snippet from the matching line', async () => {
        const id = await indexed();
        const [first] = await h.index.query(id, 'header');
        expect(first).toEqual({ path: 'src/components/Header.tsx', score: expect.any(Number), snippet: expect.stringContaining('Header') });
        expect((first as VectorMatch).score).toBeGreaterThan(0);
        const zustand = await h.index.query(id, 'zustand');
        expect(zustand).toEqual([{ path: 'package.json', score: expect.any(Number), snippet: expect.stringContaining('zustand') }]);
      });

      it('ranks a file that uses the term in many places above one that mentions it once', async () => {
        const id = await indexed();
        const results = await h.index.query(id, 'invoice');
        expect(paths(results)).toEqual(['src/lib/invoice.ts', 'src/lib/format.ts']);
        expect((results[0] as VectorMatch).score).toBeGreaterThan((results[1] as VectorMatch).score);
      });

      it('splits identifiers on camelCase and snake_case, and matches whole identifiers too', async () => {
        const id = await indexed();
        expect(paths(await h.index.query(id, 'auth store'))).toEqual(['src/store/useAuthStore.ts']);
        expect(paths(await h.index.query(id, 'useAuthStore'))[0]).toBe('src/store/useAuthStore.ts');
        expect(paths(await h.index.query(id, 'user'))).toEqual(['src/store/useAuthStore.ts']);
        expect(paths(await h.index.query(id, 'signedIn'))).toEqual(['src/store/useAuthStore.ts']);
      });

      it('finds a file by the words of its path', async () => {
        const id = await indexed([file('src/components/PricingTable.tsx', 'export const Plans = () => null;\n'), file('src/other.ts', 'x\n')]);
        expect(paths(await h.index.query(id, 'pricing table'))).toEqual(['src/components/PricingTable.tsx']);
      });

      it('is case-insensitive and handles non-ASCII words', async () => {
        const id = await indexed([file('src/menu.ts', "export const items = ['Café crème', 'Thé'];\n"), file('src/b.ts', 'export const b = 1;\n')]);
        expect(paths(await h.index.query(id, 'CAFÉ'))).toEqual(['src/menu.ts']);
      });

      it('answers one entry per file, best first, with positive scores, the same every time', async () => {
        const id = await indexed();
        const results = await h.index.query(id, 'invoice header app total money');
        expect(new Set(paths(results)).size).toBe(results.length);
        for (const r of results) expect(r.score).toBeGreaterThan(0);
        const scores = results.map((r) => r.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        expect(await h.index.query(id, 'invoice header app total money')).toEqual(results);
      });

      it('answers nothing for text without search terms, for an unknown project, and for absent terms', async () => {
        const id = await indexed();
        expect(await h.index.query(id, '  the a to ... !!! ')).toEqual([]);
        expect(await h.index.query(newProject(), 'header')).toEqual([]);
        expect(await h.index.query(id, 'kubernetes')).toEqual([]);
      });

      it('respects the limit, 10 by default (SPEC §9), and refuses a limit that is not a positive whole number', async () => {
        const files = Array.from({ length: 15 }, (_, i) => file(`src/widgets/w${i}.ts`, `export const widget${i} = 'gadget';\n`));
        const id = await indexed(files);
        expect(await h.index.query(id, 'gadget')).toHaveLength(DEFAULT_VECTOR_QUERY_LIMIT);
        expect(await h.index.query(id, 'gadget', 3)).toHaveLength(3);
        expect(await h.index.query(id, 'gadget', 50)).toHaveLength(15);
        await expect(h.index.query(id, 'gadget', 0)).rejects.toThrow(RangeError);
        await expect(h.index.query(id, 'gadget', 2.5)).rejects.toThrow(RangeError);
      });
    });

    describe('what is indexed', () => {
      it('cuts large files into chunks so a term deep inside is found with its own snippet', async () => {
        const id = await indexed([file('src/big.ts', longFile(1000, 900, 'export const needleValue = 42;')), file('src/small.ts', 'x\n')]);
        const [summary] = await h.index.listFiles(id);
        expect(summary?.path).toBe('src/big.ts');
        expect(summary?.chunks).toBeGreaterThan(1000 / CHUNK_LINES);
        const [hit] = await h.index.query(id, 'needle');
        expect(hit).toMatchObject({ path: 'src/big.ts', snippet: expect.stringMatching(/^export const needleValue = 42;/) });
      });

      it('leaves out the tree ignore list, lockfiles, binary files and huge files; normalises paths', async () => {
        const id = await indexed([
          file('node_modules/react/index.js', 'export const secretword = 1;'),
          file('dist/assets/index.js', 'secretword'),
          file('.env', 'SECRETWORD=1'),
          file('package-lock.json', '{"secretword": 1}'),
          file('yarn.lock', 'secretword'),
          file('src/logo.png', 'secretword'),
          file('src/blob.ts', 'secretword\u0000\u0001\u0002'),
          file('src/huge.ts', `secretword ${'x'.repeat(MAX_INDEXED_FILE_CHARS)}`),
          file('../outside.ts', 'secretword'),
          file('./src//kept.ts', 'secretword'),
        ]);
        expect(await h.index.listFiles(id)).toEqual([{ path: 'src/kept.ts', chunks: 1 }]);
        expect(paths(await h.index.query(id, 'secretword'))).toEqual(['src/kept.ts']);
      });

      it('keeps an empty file findable by its path', async () => {
        const id = await indexed([file('src/EmptyWidget.tsx', '')]);
        expect(paths(await h.index.query(id, 'empty widget'))).toEqual(['src/EmptyWidget.tsx']);
      });
    });

    describe('writes', () => {
      it('full reindex replaces the whole index', async () => {
        const id = await indexed();
        await h.index.fullReindex(id, [file('src/only.ts', 'export const lonely = true;\n')]);
        expect(await h.index.listFiles(id)).toEqual([{ path: 'src/only.ts', chunks: 1 }]);
        expect(await h.index.query(id, 'header')).toEqual([]);
        await h.index.fullReindex(id, []);
        expect(await h.index.listFiles(id)).toEqual([]);
      });

      it('partial reindex updates changed files and drops removed files and folders', async () => {
        const id = await indexed([
          ...APP,
          file('src/components/Footer.tsx', 'export const Footer = () => <footer>copyright</footer>;\n'),
          file('src/componentsLegacy.ts', 'export const legacyFooter = 1;\n'),
        ]);
        await h.index.partialReindex(id, [file('src/components/Header.tsx', 'export const Header = () => <nav>navigation</nav>;\n')], ['src/lib/invoice.ts']);
        expect(paths(await h.index.query(id, 'navigation'))).toEqual(['src/components/Header.tsx']);
        expect(await h.index.query(id, 'site')).toEqual([]);
        expect(paths(await h.index.query(id, 'invoice'))).toEqual(['src/lib/format.ts']);

        // A folder takes everything under it, not its namesakes; a path both changed and removed stays.
        await h.index.partialReindex(id, [file('src/components/New.tsx', 'export const fresh = 1;\n')], ['src/components']);
        const after = (await h.index.listFiles(id)).map((f) => f.path);
        expect(after).toContain('src/componentsLegacy.ts');
        expect(after).toContain('src/components/New.tsx');
        expect(after.filter((p) => p.startsWith('src/components/'))).toEqual(['src/components/New.tsx']);

        // A changed file that is now binary leaves the index; removing a path never indexed is fine.
        await h.index.partialReindex(id, [file('src/lib/format.ts', '\u0000binary')], ['src/never-there.ts', '../outside']);
        expect((await h.index.listFiles(id)).map((f) => f.path)).not.toContain('src/lib/format.ts');

        // '.' removes everything.
        await h.index.partialReindex(id, [], ['.']);
        expect(await h.index.listFiles(id)).toEqual([]);
      });

      it('keeps projects apart', async () => {
        const a = await indexed([file('src/App.tsx', 'export const App = () => <p>alpha</p>;\n')]);
        const b = await indexed([file('src/App.tsx', 'export const App = () => <p>bravo</p>;\n')]);
        expect(paths(await h.index.query(a, 'alpha'))).toEqual(['src/App.tsx']);
        expect(await h.index.query(a, 'bravo')).toEqual([]);
        expect(await h.index.query(b, 'alpha')).toEqual([]);
        await h.index.partialReindex(a, [], ['src/App.tsx']);
        expect(paths(await h.index.query(b, 'bravo'))).toEqual(['src/App.tsx']);
      });

      it('clones a template’s index, which later changes to either do not touch', async () => {
        const template = `template:contract-${newProject()}`;
        await h.index.fullReindex(template, APP);
        const id = await indexed([file('src/old.ts', 'export const previous = 1;\n')]);
        expect(await h.index.cloneTemplate(id, template)).toBe(true);
        expect(await h.index.listFiles(id)).toEqual(await h.index.listFiles(template));
        expect(await h.index.query(id, 'previous')).toEqual([]);
        expect(await h.index.query(id, 'invoice')).toEqual(await h.index.query(template, 'invoice'));

        await h.index.partialReindex(id, [file('src/clone-only.ts', 'export const cloneOnly = 1;\n')], ['src/lib']);
        expect(await h.index.query(template, 'clone only')).toEqual([]);
        expect(paths(await h.index.query(template, 'invoice'))).toEqual(['src/lib/invoice.ts', 'src/lib/format.ts']);
      });

      it('answers false for a template without an index and changes nothing', async () => {
        const id = await indexed();
        const before = await h.index.listFiles(id);
        expect(await h.index.cloneTemplate(id, 'template:no-such-template')).toBe(false);
        expect(await h.index.listFiles(id)).toEqual(before);
      });

      it('removes a project’s index and only that one', async () => {
        const a = await indexed();
        const b = await indexed();
        await h.index.remove(a);
        expect(await h.index.listFiles(a)).toEqual([]);
        expect(await h.index.query(a, 'header')).toEqual([]);
        expect(paths(await h.index.query(b, 'header'))[0]).toBe('src/components/Header.tsx');
        await h.index.remove(newProject());
      });
    });

    describe('concurrency', () => {
      it('two partial reindexes of one file at once leave exactly one version, whole', async () => {
        const id = await indexed();
        const v1 = file('src/components/Header.tsx', longFile(200, 5, '// version orchid'));
        const v2 = file('src/components/Header.tsx', longFile(130, 5, '// version tulip'));
        await Promise.all([h.index.partialReindex(id, [v1], []), h.index.partialReindex(id, [v2], [])]);
        const orchid = await h.index.query(id, 'orchid');
        const tulip = await h.index.query(id, 'tulip');
        expect(orchid.length + tulip.length).toBe(1);
        const header = (await h.index.listFiles(id)).find((f) => f.path === 'src/components/Header.tsx');
        const expected = orchid.length === 1 ? (await reference([v1])).chunks : (await reference([v2])).chunks;
        expect(header?.chunks).toBe(expected);
      });

      it('concurrent partial reindexes of different files lose none of them', async () => {
        const id = await indexed();
        await Promise.all(
          Array.from({ length: 12 }, (_, i) => h.index.partialReindex(id, [file(`src/pages/Page${i}.tsx`, `export const page${i} = 'lilac';\n`)], [])),
        );
        expect(await h.index.query(id, 'lilac', 50)).toHaveLength(12);
        expect((await h.index.listFiles(id)).map((f) => f.path)).toEqual(expect.arrayContaining(APP.map((f) => f.path)));
      });

      it('a full reindex racing a partial one ends as one of the two orders', async () => {
        const id = await indexed();
        const full = [file('src/a.ts', 'export const marigold = 1;\n')];
        const partial = file('src/b.ts', 'export const poppy = 1;\n');
        await Promise.all([h.index.fullReindex(id, full), h.index.partialReindex(id, [partial], [])]);
        const files = (await h.index.listFiles(id)).map((f) => f.path);
        expect([['src/a.ts'], ['src/a.ts', 'src/b.ts']]).toContainEqual(files);
      });
    });

    /** How an index that holds only these files summarises them (chunk counts). */
    async function reference(files: readonly ProjectFile[]): Promise<{ chunks: number }> {
      const id = newProject();
      await h.index.fullReindex(id, files);
      const [summary] = await h.index.listFiles(id);
      await h.index.remove(id);
      return { chunks: summary?.chunks ?? 0 };
    }
  });
}
