import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults the port to 3000 when PORT is unset or blank', () => {
    expect(loadConfig({})).toEqual({ port: 3000 });
    expect(loadConfig({ PORT: '' })).toEqual({ port: 3000 });
    expect(loadConfig({ PORT: '  ' })).toEqual({ port: 3000 });
  });

  it('reads a valid PORT', () => {
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(loadConfig({ PORT: ' 1 ' }).port).toBe(1);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it.each(['abc', '80.5', '-1', '1e3', '0x50', '3000abc'])('rejects the non-integer PORT %p', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(/^PORT must be an integer between 1 and 65535, got "/);
  });

  it.each(['0', '65536', '99999999999999999999'])('rejects the out-of-range PORT %p', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(/^PORT must be between 1 and 65535, got /);
  });
});
