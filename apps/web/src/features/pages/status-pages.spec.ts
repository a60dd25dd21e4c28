import { describe, expect, it } from '@jest/globals';
import { errorPageTitle } from './status-pages';

describe('error page title (SPEC §2)', () => {
  it("says 'Page Not Found' for a 404 response and 'Internal Server Error' otherwise", () => {
    const response = (status: number) => ({ status, statusText: '', internal: false, data: null });
    expect(errorPageTitle(response(404))).toBe('Page Not Found');
    expect(errorPageTitle(response(500))).toBe('Internal Server Error');
    expect(errorPageTitle(new Error('boom'))).toBe('Internal Server Error');
  });
});
