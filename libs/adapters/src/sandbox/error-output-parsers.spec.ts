import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { BUILD_ERRORS_MARKER, DEV_SERVER_READY_MARKER, parseTscOutput, parseViteBuildErrors } from './error-output-parsers.js';
import { VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';

// Real output of `tsc --noEmit --pretty false -p .` (TypeScript 6.0.3) on the starter template.
const TSC_SAMPLE = [
  "src/(auth)/page.tsx(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/bad.tsx(2,42): error TS2353: Object literal may only specify known properties, and 'extra' does not exist in type 'Props'.",
  "src/bad.tsx(3,7): error TS2322: Type 'number' is not assignable to type 'string'.",
  "src/bad.tsx(6,24): error TS2322: Type '(e: number) => number' is not assignable to type 'MouseEventHandler<HTMLDivElement>'.",
  "  Types of parameters 'e' and 'event' are incompatible.",
  "    Type 'MouseEvent<HTMLDivElement, MouseEvent>' is not assignable to type 'number'.",
  "src/other.ts(1,25): error TS2307: Cannot find module './nope' or its corresponding type declarations.",
  "src/other.ts(3,7): error TS6133: 'unused' is declared but its value is never read.",
  '',
].join('\n');

describe('parseTscOutput', () => {
  it('reads file, 1-based line and column and message of each diagnostic', () => {
    const errors = parseTscOutput(TSC_SAMPLE);
    expect(errors).toHaveLength(6);
    expect(errors[0]).toEqual({
      message: "Type 'string' is not assignable to type 'number'.",
      file: 'src/(auth)/page.tsx',
      line: 1,
      column: 14,
      severity: 'error',
    });
    expect(errors[2]).toMatchObject({ file: 'src/bad.tsx', line: 3, column: 7, severity: 'error' });
    expect(errors[4]).toMatchObject({ file: 'src/other.ts', line: 1, column: 25 });
  });

  it('keeps the indented lines that follow a diagnostic in its message', () => {
    const [, , , chained] = parseTscOutput(TSC_SAMPLE);
    expect(chained).toMatchObject({ file: 'src/bad.tsx', line: 6, column: 24 });
    expect(chained?.message).toBe(
      [
        "Type '(e: number) => number' is not assignable to type 'MouseEventHandler<HTMLDivElement>'.",
        "Types of parameters 'e' and 'event' are incompatible.",
        "Type 'MouseEvent<HTMLDivElement, MouseEvent>' is not assignable to type 'number'.",
      ].join('\n'),
    );
  });

  it('classifies by the SPEC §5 words: "never read" is a warning', () => {
    const unused = parseTscOutput(TSC_SAMPLE).at(-1);
    expect(unused).toMatchObject({ message: "'unused' is declared but its value is never read.", severity: 'warning' });
  });

  it('reports diagnostics without a file (options, tsconfig) with file "" and line 0', () => {
    expect(parseTscOutput("error TS5058: The specified path does not exist: 'nothere'.\n")).toEqual([
      { message: "The specified path does not exist: 'nothere'.", file: '', line: 0, column: 0, severity: 'error' },
    ]);
  });

  it('makes absolute paths inside the project relative, leaves others, and ignores noise and colours', () => {
    const out = [
      '\u001b[96m/work/p/src/App.tsx(10,3): error TS2304: Cannot find name \'foo\'.\u001b[0m',
      "../cache/node_modules/@types/react/index.d.ts(1,1): error TS1005: ';' expected.",
      'Found 2 errors in 2 files.',
      '',
      'random line',
    ].join('\r\n');
    const errors = parseTscOutput(out, '/work/p');
    expect(errors.map((e) => [e.file, e.line, e.column, e.message])).toEqual([
      ['src/App.tsx', 10, 3, "Cannot find name 'foo'."],
      ['../cache/node_modules/@types/react/index.d.ts', 1, 1, "';' expected."],
    ]);
  });

  it('answers nothing for a clean run', () => {
    expect(parseTscOutput('')).toEqual([]);
  });
});

describe('parseViteBuildErrors', () => {
  // What vite-launcher.mjs printed for real rolldown failures (Vite 8.3.8).
  const unresolved = {
    message:
      "[UNRESOLVED_IMPORT] Could not resolve './missing.css' in src/App.tsx\n   ╭─[ src/App.tsx:1:8 ]\n   │\n 1 │ import \"./missing.css\";\n   │        ───────┬───────  \n   │               ╰───────── Module not found.\n───╯\n",
    id: '/work/p/src/App.tsx',
    loc: { line: 1, column: 7, file: '/work/p/src/App.tsx' },
  };
  const syntax = {
    message: '[builtin:vite-transform] Unexpected token\n   ╭─[ src/broken.js:1:11 ]\n   │\n 1 │ const a = ;\n   │           ┬  \n───╯\n',
    loc: { line: 1, column: 10 },
  };

  it('reads the first line, the file and a 1-based position from each error', () => {
    const out = `vite noise\n${BUILD_ERRORS_MARKER} ${JSON.stringify([unresolved, syntax])}\n`;
    expect(parseViteBuildErrors(out, '/work/p')).toEqual([
      { message: "Could not resolve './missing.css' in src/App.tsx", file: 'src/App.tsx', line: 1, column: 8, severity: 'error' },
      { message: 'Unexpected token', file: 'src/broken.js', line: 1, column: 11, severity: 'error' },
    ]);
  });

  it('falls back to file "" and line 0 when an error has no location', () => {
    const out = `${BUILD_ERRORS_MARKER} ${JSON.stringify([{ message: 'Something deprecated broke\nmore' }, { message: 'x', id: '\u0000virtual:x' }])}`;
    expect(parseViteBuildErrors(out)).toEqual([
      { message: 'Something deprecated broke', file: '', line: 0, column: 0, severity: 'warning' },
      { message: 'x', file: '', line: 0, column: 0, severity: 'error' },
    ]);
  });

  it('strips Vite queries from module ids', () => {
    const out = `${BUILD_ERRORS_MARKER} ${JSON.stringify([{ message: 'bad', id: '/work/p/src/a.css?inline', loc: { line: 2, column: 0 } }])}`;
    expect(parseViteBuildErrors(out, '/work/p')).toEqual([{ message: 'bad', file: 'src/a.css', line: 2, column: 1, severity: 'error' }]);
  });

  it('answers null without the marker (a passing build, or a launcher that crashed) and one error for an empty list', () => {
    expect(parseViteBuildErrors('built in 120ms\n')).toBeNull();
    expect(parseViteBuildErrors(`${BUILD_ERRORS_MARKER} {not json`)).toBeNull();
    expect(parseViteBuildErrors(`${BUILD_ERRORS_MARKER} []`)).toEqual([
      { message: 'The build failed', file: '', line: 0, column: 0, severity: 'error' },
    ]);
  });
});

describe('launcher markers', () => {
  it('are the ones vite-launcher.mjs prints', () => {
    const launcher = readFileSync(path.resolve(process.cwd(), VITE_LAUNCHER_RELATIVE_PATH), 'utf8');
    expect(launcher).toContain(`const READY_MARKER = '${DEV_SERVER_READY_MARKER}'`);
    expect(launcher).toContain(`const BUILD_ERRORS_MARKER = '${BUILD_ERRORS_MARKER}'`);
  });
});
