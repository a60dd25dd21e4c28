import { describe, expect, it } from '@jest/globals';
import { languageOf } from './language';
import { DEVICE_FRAMES, previewOriginOf } from './preview';
import { relativeTime } from '../../app/relative-time';

describe('builder helpers', () => {
  it('has the SPEC §2 device sizes', () => {
    expect(Object.values(DEVICE_FRAMES).map((d) => `${d.label} ${d.width}`)).toEqual(['Mobile 375px', 'Tablet 768px', 'Laptop 1200px', 'Desktop 95%']);
  });

  it('derives the preview origin from its address, and trusts nothing else', () => {
    expect(previewOriginOf('http://p1.preview.localhost:3000/__kiln/auth?token=x&next=/')).toBe('http://p1.preview.localhost:3000');
    expect(previewOriginOf('https://p1.kiln.app/')).toBe('https://p1.kiln.app');
    expect(previewOriginOf('/relative/path')).toBeNull();
    expect(previewOriginOf('javascript:alert(1)')).toBeNull();
    expect(previewOriginOf('')).toBeNull();
    expect(previewOriginOf(null)).toBeNull();
  });

  it.each([
    ['src/App.tsx', 'tsx'],
    ['src/main.ts', 'typescript'],
    ['vite.config.mjs', 'javascript'],
    ['src/Button.jsx', 'jsx'],
    ['src/index.css', 'css'],
    ['index.html', 'html'],
    ['package.json', 'json'],
    ['README.md', 'text'],
    ['.gitignore', 'text'],
    ['Dockerfile', 'text'],
  ])('edits %s as %s', (path, language) => {
    expect(languageOf(path)).toBe(language);
  });

  it('says when in words', () => {
    const now = Date.parse('2024-01-01T12:00:00.000Z');
    expect(relativeTime('2024-01-01T11:59:40.000Z', now)).toBe('just now');
    expect(relativeTime('2024-01-01T11:55:00.000Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2023-12-31T12:00:00.000Z', now)).toBe('yesterday');
    expect(relativeTime('2023-12-01T12:00:00.000Z', now)).toBe('last month');
    expect(relativeTime('nonsense', now)).toBe('');
  });
});
