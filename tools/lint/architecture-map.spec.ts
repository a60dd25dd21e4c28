// docs/architecture.md has one line per room of libs/domain/src ("Rooms of the domain"): this
// fails when a folder is added, renamed or removed without the map following (or the reverse).
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function mappedRooms(markdown: string): string[] {
  const section = /## Rooms of the domain[^\n]*\n([\s\S]*?)\n## /.exec(markdown)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .flatMap((line) => [...(/^- ((?:`[a-z-]+\/`(?:, )?)+)/.exec(line)?.[1] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1] as string));
}

describe('docs/architecture.md map of the domain', () => {
  it('names every room of libs/domain/src, and only those', () => {
    const rooms = readdirSync(path.join(repoRoot, 'libs/domain/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const mapped = mappedRooms(readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8')).sort();
    expect(rooms.length).toBeGreaterThan(10);
    expect(mapped).toEqual(rooms);
  });
});
