import { describe, expect, it } from '@jest/globals';
import { QrcodeSvgRenderer } from './qrcode-svg-renderer.adapter.js';

describe('QrcodeSvgRenderer', () => {
  it('draws an SVG document, different for different texts', async () => {
    const renderer = new QrcodeSvgRenderer();
    const one = await renderer.svg('otpauth://totp/Kiln:a%40example.com?secret=JBSWY3DPEHPK3PXP');
    const two = await renderer.svg('otpauth://totp/Kiln:b%40example.com?secret=JBSWY3DPEHPK3PXP');
    expect(one.trim()).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
    expect(one).toContain('<path');
    expect(one).not.toBe(two);
  });
});
