// README.md and docs/*.md point only at files in this repository: every relative link (and
// image) resolves to a file or folder inside the clone, and a #fragment to a heading of that
// file. A link to a sibling folder (../shared/…) may exist on one machine and not in a clone.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The markdown files a reader starts from. */
const DOCS = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Markdown without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Link targets: inline `[text](target "title")` and `![alt](target)`, and reference definitions `[id]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1] as string);
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i; // http:, https:, mailto:, …

/** Problems with the relative links of one markdown file (paths relative to the repository). */
function brokenLinks(file: string): string[] {
  const markdown = readFileSync(path.join(repoRoot, file), 'utf8');
  return linkTargets(markdown)
    .filter((target) => !EXTERNAL.test(target))
    .flatMap((target) => {
      const [rawPath = '', fragment] = target.split('#', 2);
      const targetPath = decodeURIComponent(rawPath);
      const resolved = targetPath === '' ? path.join(repoRoot, file) : path.resolve(path.dirname(path.join(repoRoot, file)), targetPath);
      const inside = path.relative(repoRoot, resolved);
      if (inside.startsWith('..') || path.isAbsolute(inside)) return [`${file}: ${target} points outside the repository`];
      if (!existsSync(resolved)) return [`${file}: ${target} does not exist`];
      if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile() && !headingAnchors(readFileSync(resolved, 'utf8')).has(fragment.toLowerCase())) {
        return [`${file}: ${target} names no heading of ${inside}`];
      }
      return [];
    });
}

describe('markdown links', () => {
  it('finds the documents and their links (so an empty walk cannot pass)', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/product.md', 'docs/architecture.md']));
    expect(linkTargets(readFileSync(path.join(repoRoot, 'README.md'), 'utf8'))).toEqual(expect.arrayContaining(['docs/product.md']));
  });

  it('reads inline links, images and reference definitions, not code', () => {
    const markdown = ['See [a](docs/a.md) and ![b](screens/b.png "B").', '`[c](not/a/link.md)`', '```', '[d](nor/this.md)', '```', '[e]: ../e.md'].join('\n');
    expect(linkTargets(markdown)).toEqual(['docs/a.md', 'screens/b.png', '../e.md']);
  });

  it('makes the anchors GitHub makes', () => {
    expect([...headingAnchors('# Node.js\n## What `npm start` exposes, and running\n## Tests\n## Tests\n')]).toEqual([
      'nodejs',
      'what-npm-start-exposes-and-running',
      'tests',
      'tests-1',
    ]);
  });

  it.each(DOCS)('%s links only to files in the repository', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
