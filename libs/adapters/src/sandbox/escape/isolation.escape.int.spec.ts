import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { DEFAULT_BWRAP_PATH } from '../local-sandbox-host.adapter.js';

// The escape suite proves nothing without isolation: it fails, never skips, when bubblewrap is missing.
describe('Escape suite', () => {
  it(`runs in isolation mode (bubblewrap at ${DEFAULT_BWRAP_PATH})`, () => {
    expect(existsSync(DEFAULT_BWRAP_PATH)).toBe(true);
  });
});
