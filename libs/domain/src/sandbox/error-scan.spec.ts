import { describe, expect, it } from '@jest/globals';
import type { CodeError } from './code-error.js';
import { EMPTY_ERROR_SCAN, errorScanFrom } from './error-scan.js';

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
