import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';
import { CHECK_REQUEST, CHECK_RESULT_MARKER, checkRequestLine, MAX_VOUCHED_FILES, parseWarmCheckReply, warmCheckMayVouchFor } from './warm-checks.js';

describe('warmCheckMayVouchFor', () => {
  it('may vouch for TypeScript modules under src/ (the type-check), stylesheets under src/ and index.html (the dev server)', () => {
    expect(warmCheckMayVouchFor(['src/App.tsx', 'src/lib/utils.ts', 'src/pages/deep/Team.tsx', 'src/types.d.ts', 'src/index.css', 'src/components/List.css', 'index.html'])).toBe(true);
    expect(warmCheckMayVouchFor([])).toBe(true);
    for (const other of ['vite.config.ts', 'package.json', 'tsconfig.json', 'src/data.json', 'src/legacy.js', 'public/logo.svg', 'scripts/x.ts', 'src/.ts', 'public/index.html', 'styles/x.css']) {
      expect([other, warmCheckMayVouchFor(['src/App.tsx', other])]).toEqual([other, false]);
    }
    expect(warmCheckMayVouchFor(Array.from({ length: MAX_VOUCHED_FILES + 1 }, (_, i) => `src/s${i}.css`))).toBe(false);
  });

  it('asks with one short line naming the changed files that are not TypeScript', () => {
    expect(checkRequestLine('ab12cd34', 'build', ['src/index.css'])).toBe('kiln-check ab12cd34 build\n');
    const line = checkRequestLine('ab12cd34', 'vouch', ['src/App.tsx', 'src/index.css', 'index.html']);
    const [word, id, mode, files = ''] = line.trim().split(' ');
    expect([word, id, mode]).toEqual([CHECK_REQUEST, 'ab12cd34', 'vouch']);
    expect(JSON.parse(Buffer.from(files, 'base64url').toString('utf8'))).toEqual(['src/index.css', 'index.html']);
    expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
  });
});

describe('parseWarmCheckReply', () => {
  it('reads a checked answer: type output, and the build not run, passed or failed', () => {
    const typeCheck = { output: "src/App.tsx(2,9): error TS2322: Type 'string' is not assignable to type 'number'.\n", errorCount: 1 };
    expect(parseWarmCheckReply(JSON.stringify({ typeCheck, build: null }))).toEqual({ kind: 'checked', typeOutput: typeCheck.output, typeErrorCount: 1, buildErrors: null });
    expect(parseWarmCheckReply(JSON.stringify({ typeCheck: { output: '', errorCount: 0 }, build: { ok: true } }))).toMatchObject({ buildErrors: [] });
    const errors = [{ message: 'Could not resolve', loc: { file: 'src/App.tsx', line: 1, column: 7 } }];
    expect(parseWarmCheckReply(JSON.stringify({ typeCheck: { output: '', errorCount: 0 }, build: { errors } }))).toMatchObject({ buildErrors: errors });
    // A failed build with no error listed still failed.
    expect(parseWarmCheckReply(JSON.stringify({ typeCheck: { output: '', errorCount: 0 }, build: { errors: [] } }))).toMatchObject({ buildErrors: [{ message: 'The build failed' }] });
  });

  it('reads a fallback (the cold check must answer), its reason bounded', () => {
    expect(parseWarmCheckReply(JSON.stringify({ typeCheck: { fallback: 'x'.repeat(500) } }))).toEqual({ kind: 'fallback', reason: 'x'.repeat(200) });
  });

  it('refuses anything else: not JSON, an error report, wrong types, a build that is neither passed nor failed', () => {
    for (const garbled of [
      'not json',
      'null',
      '[]',
      JSON.stringify({ error: 'boom' }),
      JSON.stringify({ typeCheck: { output: 1, errorCount: 0 }, build: null }),
      JSON.stringify({ typeCheck: { output: '', errorCount: -1 }, build: null }),
      JSON.stringify({ typeCheck: { output: '', errorCount: 0.5 }, build: null }),
      JSON.stringify({ typeCheck: { output: '', errorCount: 0 } }),
      JSON.stringify({ typeCheck: { output: '', errorCount: 0 }, build: { ok: 'yes' } }),
      JSON.stringify({ typeCheck: { output: '', errorCount: 0 }, build: { errors: 'many' } }),
    ]) {
      expect([garbled, parseWarmCheckReply(garbled)]).toEqual([garbled, null]);
    }
  });
});

describe('the warm checks protocol', () => {
  it('uses the words runtime/warm-checks.mjs uses', () => {
    const runtime = readFileSync(path.resolve(process.cwd(), path.dirname(VITE_LAUNCHER_RELATIVE_PATH), 'warm-checks.mjs'), 'utf8');
    expect(runtime).toContain(`export const CHECK_REQUEST = '${CHECK_REQUEST}'`);
    expect(runtime).toContain(`export const CHECK_RESULT_MARKER = '${CHECK_RESULT_MARKER}'`);
  });
});
