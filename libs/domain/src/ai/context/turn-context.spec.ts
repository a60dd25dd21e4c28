import { describe, expect, it } from '@jest/globals';
import { filePaths, folderPaths, isTextFile, selectContext } from './turn-context.js';

describe('selectContext (the default context of a turn)', () => {
  const files: Record<string, string> = {
    'package.json': '{}',
    'index.html': '<div></div>',
    'README.md': 'not sent',
    'src/App.tsx': 'a'.repeat(10),
    'src/main.tsx': 'm',
    'src/big.ts': 'b'.repeat(100),
    'src/small.ts': 's',
    'src/logo.png': 'binary',
    'tsconfig.json': '{}',
  };
  const read = async (path: string) => files[path] ?? '';
  const tree = Object.keys(files);

  it('sends package.json, index.html and the entry points first, then the text files under src/ within the limit', async () => {
    const chosen = await selectContext({ projectId: 'p', prompt: 'x', tree, read, required: [], limitChars: 50 });
    expect(chosen.map((f) => f.path)).toEqual(['package.json', 'index.html', 'src/main.tsx', 'src/App.tsx', 'src/small.ts']);
  });

  it('always sends a required file, even over the limit', async () => {
    const chosen = await selectContext({ projectId: 'p', prompt: 'x', tree, read, required: ['src/big.ts'], limitChars: 5 });
    expect(chosen.map((f) => f.path)).toEqual(['src/big.ts']);
  });

  it('knows text files and walks trees', () => {
    expect(['a.ts', 'b.tsx', 'c.css', 'd.png', 'e'].map(isTextFile)).toEqual([true, true, true, false, false]);
    const tree = [{ name: 'src', type: 'directory' as const, path: 'src', children: [{ name: 'a.ts', type: 'file' as const, path: 'src/a.ts' }] }, { name: 'x', type: 'file' as const, path: 'x' }];
    expect(filePaths(tree)).toEqual(['src/a.ts', 'x']);
    expect(folderPaths(tree)).toEqual(['src']);
  });
});
