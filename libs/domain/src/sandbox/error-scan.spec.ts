import { describe, expect, it } from '@jest/globals';
import type { CodeError } from './code-error.js';
import { EMPTY_ERROR_SCAN, ErrorScanUnavailable, errorScanFrom, errorScanStatus, UNEXPLAINED_SCAN_FAILURE, unavailableErrorScan, unavailableReasonOf } from './error-scan.js';

const at = (file: string, severity: CodeError['severity']): CodeError => ({
  message: 'm',
  file,
  line: 1,
  column: 1,
  severity,
});

describe('errorScanFrom', () => {
  it('counts errors and warnings separately', () => {
    const scan = errorScanFrom([at('src/a.ts', 'error'), at('src/b.ts', 'warning'), at('src/c.ts', 'error')]);
    expect(scan.errorCount).toBe(2);
    expect(scan.warningCount).toBe(1);
    expect(scan.errors).toHaveLength(3);
  });

  it('drops findings from the AI-support folder before counting (SPEC §5)', () => {
    const scan = errorScanFrom([at('src/.kiln/bridge.ts', 'error'), at('/app/src/.kiln/x.ts', 'warning'), at('src/a.ts', 'error')]);
    expect(scan).toEqual({ errors: [at('src/a.ts', 'error')], errorCount: 1, warningCount: 0 });
  });

  it('a failed scan reports zero counts (SPEC §8)', () => {
    expect(EMPTY_ERROR_SCAN).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(errorScanFrom([])).toEqual(EMPTY_ERROR_SCAN);
  });
});

describe('a check that could not run', () => {
  it('keeps SPEC §8 zero counts but says it was not checked, and why', () => {
    const scan = unavailableErrorScan('Type-checking did not finish within 60 s.');
    expect(scan).toEqual({ errors: [], errorCount: 0, warningCount: 0, unavailableReason: 'Type-checking did not finish within 60 s.' });
    expect(errorScanStatus(scan)).toBe('unavailable');
    expect(errorScanStatus(errorScanFrom([]))).toBe('checked');
    expect(errorScanStatus(EMPTY_ERROR_SCAN)).toBe('checked');
    expect(unavailableErrorScan('  ').unavailableReason).toBe(UNEXPLAINED_SCAN_FAILURE);
  });

  it("shows the host's reason, never its detail, and a generic reason for anything unexplained", () => {
    const tagged = new ErrorScanUnavailable('The type-checker could not run.', 'Error: Cannot find module /srv/kiln/data/p1/node_modules/typescript/bin/tsc');
    expect(unavailableReasonOf(tagged)).toBe('The type-checker could not run.');
    expect(tagged.message).toContain('/srv/kiln'); // the log keeps the detail
    const foreign = Object.assign(new Error('x'), { name: 'ErrorScanUnavailable', reason: 'From another copy.' });
    expect(unavailableReasonOf(foreign)).toBe('From another copy.');
    expect(unavailableReasonOf(new Error('spawn /usr/bin/node ENOENT'))).toBe(UNEXPLAINED_SCAN_FAILURE);
    expect(unavailableReasonOf('boom')).toBe(UNEXPLAINED_SCAN_FAILURE);
  });
});
