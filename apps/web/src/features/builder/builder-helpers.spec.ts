import { describe, expect, it } from '@jest/globals';
import { languageOf } from './language';
import { DEVICES, DEVICE_FRAMES, deviceFrameHint, fitPreviewFrame, previewOriginOf } from './preview';
import { relativeTime } from '../../app/relative-time';

describe('builder helpers', () => {
  it('has device sizes that strictly increase: mobile < tablet < laptop < desktop', () => {
    expect(DEVICES.map((d) => deviceFrameHint(DEVICE_FRAMES[d]))).toEqual([
      'Mobile (375 px)',
      'Tablet (768 px)',
      'Laptop (1200 px)',
      'Desktop (1440 px or wider)',
    ]);
    const widths = DEVICES.map((d) => DEVICE_FRAMES[d].width);
    widths.slice(1).forEach((width, i) => expect(width).toBeGreaterThan(widths[i]!));
  });

  it('keeps a frame that fits its pane at its own size', () => {
    expect(fitPreviewFrame({ width: 800, height: 600 }, DEVICE_FRAMES.mobile)).toEqual({ width: 375, height: 600, scale: 1 });
    expect(fitPreviewFrame({ width: 768, height: 600 }, DEVICE_FRAMES.tablet)).toEqual({ width: 768, height: 600, scale: 1 });
  });

  it('scales a frame wider than its pane down to the pane instead of cropping it', () => {
    const laptop = fitPreviewFrame({ width: 600, height: 500 }, DEVICE_FRAMES.laptop);
    expect(laptop).toEqual({ width: 1200, height: 1000, scale: 0.5 });
    // The scaled frame is exactly as wide and as tall as the pane.
    expect(laptop.width * laptop.scale).toBe(600);
    expect(laptop.height * laptop.scale).toBe(500);
    expect(fitPreviewFrame({ width: 720, height: 450 }, DEVICE_FRAMES.desktop)).toEqual({ width: 1440, height: 900, scale: 0.5 });
  });

  it('widens the desktop frame to fill a wider pane, and never past the pane', () => {
    expect(fitPreviewFrame({ width: 1800, height: 900 }, DEVICE_FRAMES.desktop)).toEqual({ width: 1800, height: 900, scale: 1 });
    expect(fitPreviewFrame({ width: 1800, height: 900 }, DEVICE_FRAMES.laptop)).toEqual({ width: 1200, height: 900, scale: 1 });
  });

  it('the desktop viewport is never narrower than the laptop one, whatever the pane', () => {
    for (const width of [200, 640, 1000, 1280, 1440, 2000]) {
      const laptop = fitPreviewFrame({ width, height: 700 }, DEVICE_FRAMES.laptop);
      const desktop = fitPreviewFrame({ width, height: 700 }, DEVICE_FRAMES.desktop);
      expect(desktop.width).toBeGreaterThan(laptop.width);
      expect(desktop.width * desktop.scale).toBeLessThanOrEqual(width);
    }
  });

  it('leaves an unmeasured pane unscaled', () => {
    expect(fitPreviewFrame({ width: 0, height: 0 }, DEVICE_FRAMES.laptop)).toEqual({ width: 1200, height: 0, scale: 1 });
    expect(fitPreviewFrame({ width: Number.NaN, height: -5 }, DEVICE_FRAMES.mobile)).toEqual({ width: 375, height: 0, scale: 1 });
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
