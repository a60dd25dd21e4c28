import { describe, expect, it } from '@jest/globals';
import { TEMPLATE_IDS } from '@kiln/domain';
import { starterFiles } from './testing/drive-assistant.js';
import { OfflineTemplateFiles } from './templates.js';

const producer = new OfflineTemplateFiles();
const starter = starterFiles();

/** Every relative import of a file names a file of the project (what tsc would resolve). */
function unresolvedImports(files: ReadonlyMap<string, string>): string[] {
  const missing: string[] = [];
  for (const [path, content] of files) {
    if (!/\.(ts|tsx)$/.test(path)) continue;
    for (const match of content.matchAll(/from '(\.{1,2}\/[^']+)'|import '(\.{1,2}\/[^']+)'/g)) {
      const parts = path.split('/').slice(0, -1);
      for (const piece of ((match[1] ?? match[2]) as string).split('/')) {
        if (piece === '..') parts.pop();
        else if (piece !== '.') parts.push(piece);
      }
      const base = parts.join('/');
      if (![base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].some((p) => files.has(p))) missing.push(`${path} → ${match[0]}`);
    }
  }
  return missing;
}

const project = (template: (typeof TEMPLATE_IDS)[number]) => new Map([...starter, ...producer.filesFor(template, starter)]);

describe('OfflineTemplateFiles', () => {
  it('blank keeps the starter as it is', () => {
    expect(producer.filesFor('blank', starter).size).toBe(0);
  });

  it.each([
    ['landing', ['Hero', 'Features', 'Testimonials', 'CallToAction']],
    ['dashboard', ['Overview', 'RecentOrders']],
    ['store', ['Store']],
    ['blog', ['Blog']],
  ] as const)('%s is a whole app of its kind whose imports all resolve', (template, components) => {
    const files = project(template);
    const app = files.get('src/App.tsx') ?? '';
    for (const component of components) expect(app).toContain(`<${component} />`);
    expect(files.get('index.html')).toMatch(/<title>[^<]+<\/title>/);
    expect(unresolvedImports(files)).toEqual([]);
  });

  it('is the same project every time, and each template differs from the others', () => {
    expect([...producer.filesFor('store', starter)]).toEqual([...producer.filesFor('store', starter)]);
    const apps = TEMPLATE_IDS.map((id) => project(id).get('src/App.tsx'));
    expect(new Set(apps).size).toBe(TEMPLATE_IDS.length);
  });
});
