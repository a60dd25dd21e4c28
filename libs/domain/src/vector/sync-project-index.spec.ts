import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { InMemoryVectorIndex } from '../testing/in-memory-vector-index.js';
import { SyncProjectIndex, mapLimited, treeFilePaths } from './sync-project-index.js';

const ID = '11111111-1111-4111-8111-111111111111';

describe('SyncProjectIndex', () => {
  let host: InMemorySandboxHost;
  let index: InMemoryVectorIndex;
  let sync: SyncProjectIndex;
  const indexedPaths = async () => (await index.listFiles(ID)).map((f) => f.path);

  beforeEach(async () => {
    host = new InMemorySandboxHost();
    index = new InMemoryVectorIndex();
    sync = new SyncProjectIndex(host, index);
    await host.ensure(ID);
    await host.writeFile(ID, 'node_modules/react/index.js', 'export const hidden = 1;');
    await host.writeFile(ID, 'src/assets/logo.png', '\u0000PNG');
  });

  it('reindexes every file of the sandbox, never the ignored or binary ones', async () => {
    const report = await sync.reindexAll(ID);
    expect(await indexedPaths()).toEqual(['index.html', 'package.json', 'src/App.tsx', 'src/main.tsx', 'tsconfig.json']);
    expect(report).toEqual({ indexed: 5, skipped: 0, removed: [], refused: [] });
    expect((await index.query(ID, 'welcome'))[0]?.path).toBe('src/App.tsx');
  });

  it('follows writes, deletes and folder changes through indexChanged', async () => {
    await sync.reindexAll(ID);
    await host.writeFile(ID, 'src/components/Cart.tsx', 'export const Cart = () => <p>basket</p>;\n');
    await host.writeFile(ID, 'src/App.tsx', 'export function App() { return <Cart />; }\n');
    await sync.indexChanged(ID, ['src/components/Cart.tsx', './src/App.tsx']);
    expect((await index.query(ID, 'basket'))[0]?.path).toBe('src/components/Cart.tsx');
    expect(await index.query(ID, 'welcome')).toEqual([]);

    await host.deleteFile(ID, 'src/components/Cart.tsx');
    const report = await sync.indexChanged(ID, ['src/components/Cart.tsx']);
    expect(report.removed).toEqual(['src/components/Cart.tsx']);
    expect(await indexedPaths()).not.toContain('src/components/Cart.tsx');

    // A folder is read again whole: files gone from it leave the index, new ones join.
    await host.writeFile(ID, 'src/pages/A.tsx', 'export const A = 1;');
    await host.writeFile(ID, 'src/pages/B.tsx', 'export const B = 1;');
    await sync.indexChanged(ID, ['src/pages']);
    await host.deleteFile(ID, 'src/pages/A.tsx');
    await host.writeFile(ID, 'src/pages/C.tsx', 'export const C = 1;');
    await sync.indexChanged(ID, ['src/pages']);
    expect((await indexedPaths()).filter((p) => p.startsWith('src/pages/'))).toEqual(['src/pages/B.tsx', 'src/pages/C.tsx']);
  });

  it('reindexes everything when no paths are given (a command or a restore changed anything)', async () => {
    await sync.reindexAll(ID);
    await host.deleteFile(ID, 'tsconfig.json');
    await host.writeFile(ID, 'src/new.ts', 'export const brandNew = 1;');
    await sync.indexChanged(ID, []);
    expect(await indexedPaths()).toEqual(['index.html', 'package.json', 'src/App.tsx', 'src/main.tsx', 'src/new.ts']);
  });

  it('takes given contents as they are and reads the others; refuses paths outside the project', async () => {
    const report = await sync.fullReindex(ID, [
      { path: 'src/App.tsx', content: 'export const given = "supplied";' },
      { path: 'src/main.tsx' },
      { path: 'src/missing.ts' },
      { path: '../etc/passwd' },
    ]);
    expect(await indexedPaths()).toEqual(['src/App.tsx', 'src/main.tsx']);
    expect((await index.query(ID, 'supplied'))[0]?.path).toBe('src/App.tsx');
    expect(report.refused).toEqual(['../etc/passwd']);
  });

  it('partial reindex with explicit removals', async () => {
    await sync.reindexAll(ID);
    const report = await sync.partialReindex(ID, [{ path: 'src/extra.ts', content: 'export const extra = 1;' }], ['index.html', '/abs']);
    expect(report).toEqual({ indexed: 1, skipped: 0, removed: ['index.html'], refused: ['/abs'] });
    expect(await indexedPaths()).toEqual(['package.json', 'src/App.tsx', 'src/extra.ts', 'src/main.tsx', 'tsconfig.json']);
  });

  it('rejects when the project has no sandbox', async () => {
    await expect(sync.reindexAll('22222222-2222-4222-8222-222222222222')).rejects.toThrow('No sandbox');
  });
});

describe('helpers', () => {
  it('treeFilePaths lists files at every depth', () => {
    expect(
      treeFilePaths([
        { name: 'src', type: 'directory', path: 'src', children: [{ name: 'a.ts', type: 'file', path: 'src/a.ts' }] },
        { name: 'b.ts', type: 'file', path: 'b.ts' },
      ]),
    ).toEqual(['src/a.ts', 'b.ts']);
  });

  it('mapLimited keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([1, 2, 3, 4, 5, 6, 7], 3, async (x) => {
      running += 1;
      most = Math.max(most, running);
      await Promise.resolve();
      running -= 1;
      return x * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(most).toBe(3);
  });
});
