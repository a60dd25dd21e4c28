import { describe, expect, it } from '@jest/globals';
import { createContainer } from './container';
import { HomeVm } from './features/home/home.vm';

describe('createContainer', () => {
  it('resolves a fresh HomeVm for each request', () => {
    const container = createContainer();

    const first = container.get(HomeVm);
    const second = container.get(HomeVm);

    expect(first).toBeInstanceOf(HomeVm);
    expect(second).not.toBe(first);
  });
});
