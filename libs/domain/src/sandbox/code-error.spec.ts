import { describe, expect, it } from '@jest/globals';
import {
  AI_SUPPORT_DIR,
  type CodeError,
  classifyErrorSeverity,
  errorSeenAgain,
  isIgnoredErrorFile,
  markErrorSolved,
  markErrorSolving,
  newErrorRecord,
} from './code-error.js';

describe('classifyErrorSeverity (SPEC §5)', () => {
  it.each([
    ["'x' is declared but its value is never read.", 'never read'],
    ["'helper' is defined but never used.", 'never used'],
    ['Unused variable foo', 'unused'],
    ['React.FC is deprecated', 'deprecated'],
    ['Warning: each child in a list should have a unique key', 'warning'],
    ['Does not follow the style guide', 'style guide'],
    ['Consider using optional chaining', 'consider using'],
    ['Unnecessary type assertion', 'unnecessary'],
    ['UNUSED IMPORT', 'upper case'],
    ['DePrEcAtEd API', 'mixed case'],
  ])('%p is a warning (%s)', (message) => {
    expect(classifyErrorSeverity(message)).toBe('warning');
  });

  it.each([
    ["Cannot find name 'foo'."],
    ["Type 'string' is not assignable to type 'number'."],
    ['Unexpected token'],
    [''],
  ])('%p is an error', (message) => {
    expect(classifyErrorSeverity(message)).toBe('error');
  });
});

describe('isIgnoredErrorFile (SPEC §5)', () => {
  it('uses src/.kiln as the AI-support folder', () => {
    expect(AI_SUPPORT_DIR).toBe('src/.kiln');
  });

  it.each([
    ['src/.kiln/bridge.ts'],
    ['./src/.kiln/bridge.ts'],
    ['/app/src/.kiln/bridge.ts'],
    ['/app/src/.kiln/deep/nested/file.tsx'],
    ['src\\.kiln\\bridge.ts'],
    ['src/.kiln'],
    [' src/.kiln/bridge.ts '],
  ])('ignores %p', (file) => {
    expect(isIgnoredErrorFile(file)).toBe(true);
  });

  it.each([
    ['src/App.tsx'],
    ['src/.kilnx/file.ts'],
    ['mysrc/.kiln/file.ts'],
    ['.kiln/file.ts'],
    ['src/components/.kiln.ts'],
    ['src/Kiln/file.ts'],
    ['SRC/.kiln/file.ts'],
    [''],
  ])('keeps %p', (file) => {
    expect(isIgnoredErrorFile(file)).toBe(false);
  });
});

describe('error records (SPEC §3, §4)', () => {
  const error: CodeError = { message: "Cannot find name 'x'", file: 'src/App.tsx', line: 3, column: 7, severity: 'error' };
  const now = new Date('2025-03-01T10:00:00.000Z');
  const record = newErrorRecord(error, { id: 'err-1', now });

  it('starts as seen once, unsolved and not being fixed', () => {
    expect(record).toEqual({ ...error, id: 'err-1', timestamp: now, count: 1, solved: false, isSolving: false });
  });

  it('counts repeat sightings without changing when it was first seen', () => {
    const again = errorSeenAgain(errorSeenAgain(record));
    expect(again.count).toBe(3);
    expect(again.timestamp).toBe(now);
    expect(record.count).toBe(1);
  });

  it('can be marked as being fixed by the AI, then solved', () => {
    const solving = markErrorSolving(record);
    expect(solving).toMatchObject({ isSolving: true, solved: false });
    expect(markErrorSolved(solving)).toMatchObject({ isSolving: false, solved: true });
  });

  it('can be marked solved directly', () => {
    expect(markErrorSolved(record)).toMatchObject({ isSolving: false, solved: true, count: 1 });
  });
});
