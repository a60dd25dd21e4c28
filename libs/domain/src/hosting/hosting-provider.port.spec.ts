import { describe, expect, it } from '@jest/globals';
import { DEFAULT_HOSTING_REGION } from './hosting-provider.port.js';

describe('hosting constants (SPEC §7, §9)', () => {
  it("creates apps in region 'sin' by default", () => {
    expect(DEFAULT_HOSTING_REGION).toBe('sin');
  });
});
