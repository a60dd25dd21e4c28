// docs/architecture.md: a source file over ~500 lines gets split by role; none may pass 600.
// Walks the sources (not node_modules, build output or the starter template copied into new
// projects) and lists every file over the limit, so the failure says which to split.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 600;
const ROOTS = ['apps', 'libs', 'tools', 'bench'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.vite', 'test-results', 'playwright-report']);
/** Generated apps' templates: what a project starts from, not Kiln's own code. */
const TEMPLATES = ['libs/adapters/src/sandbox/starter'];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function sources(dir: string): string[] {
  const relative = path.relative(repoRoot, dir);
  if (TEMPLATES.includes(relative)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sources(path.join(dir, entry.name));
    return entry.isFile() && SOURCE.test(entry.name) ? [path.join(relative, entry.name)] : [];
  });
}

const lineCount = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8').split('\n').length - 1;

describe('file length', () => {
  const files = ROOTS.flatMap((root) => sources(path.join(repoRoot, root)));

  it('finds the sources (so an empty walk cannot pass)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('libs/adapters/src/sandbox/local-sandbox-host.adapter.ts');
    expect(files).toContain('libs/offline-assistant/src/kinds/forms.ts');
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const over = files.map((file) => ({ file, lines: lineCount(file) })).filter(({ lines }) => lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
