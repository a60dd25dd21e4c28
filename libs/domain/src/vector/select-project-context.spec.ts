import { describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { InMemoryVectorIndex } from '../testing/in-memory-vector-index.js';
import type { VectorIndex } from './vector-index.port.js';
import { SelectProjectContext } from './select-project-context.js';
import { SyncProjectIndex } from './sync-project-index.js';

const ID = '33333333-3333-4333-8333-333333333333';

async function project(extra: Record<string, string>) {
  const host = new InMemorySandboxHost();
  const index = new InMemoryVectorIndex();
  await host.ensure(ID);
  for (const [path, content] of Object.entries(extra)) await host.writeFile(ID, path, content);
  await new SyncProjectIndex(host, index).reindexAll(ID);
  return { host, index };
}

describe('SelectProjectContext', () => {
  it('gives a small project whole: entry points first, hits next, then the rest', async () => {
    const { host, index } = await project({ 'src/components/Checkout.tsx': 'export const Checkout = () => <p>payment</p>;', 'src/assets/logo.png': '\u0000' });
    const context = await new SelectProjectContext(host, index).execute({ projectId: ID, prompt: 'Change the payment step of checkout' });
    expect(context.tree).toContain('src/assets/logo.png');
    expect(context.matches[0]?.path).toBe('src/components/Checkout.tsx');
    expect(context.files.map((f) => f.path)).toEqual([
      'src/main.tsx',
      'src/App.tsx',
      'package.json',
      'index.html',
      'src/components/Checkout.tsx',
      'tsconfig.json',
    ]);
    expect(context.omitted).toEqual([]);
    expect(context.indexAvailable).toBe(true);
  });

  it('keeps a large project within the budget, preferring the files the request is about', async () => {
    const filler = (i: number) => `export const module${i} = ${JSON.stringify('lorem ipsum '.repeat(400))};\n`;
    const files: Record<string, string> = { 'src/features/Weather.tsx': 'export const Weather = () => <p>forecast temperature</p>;' };
    for (let i = 0; i < 300; i += 1) files[`src/modules/m${String(i).padStart(3, '0')}.ts`] = filler(i);
    const { host, index } = await project(files);
    const context = await new SelectProjectContext(host, index).execute({ projectId: ID, prompt: 'show the forecast temperature', budgetChars: 20_000 });
    expect(context.usedChars).toBeLessThanOrEqual(20_000);
    expect(context.files.map((f) => f.path).slice(0, 5)).toEqual(['src/main.tsx', 'src/App.tsx', 'package.json', 'index.html', 'src/features/Weather.tsx']);
    expect(context.tree.length).toBeGreaterThan(300);
  });

  it('still answers without hits when the index fails', async () => {
    const { host } = await project({});
    const broken = { query: () => Promise.reject(new Error('index down')) } as unknown as VectorIndex;
    const context = await new SelectProjectContext(host, broken).execute({ projectId: ID, prompt: 'anything' });
    expect(context.indexAvailable).toBe(false);
    expect(context.files[0]?.path).toBe('src/main.tsx');
  });
});
