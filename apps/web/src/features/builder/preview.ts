// The live preview's pure rules: device sizes (SPEC §2) and the origin the console bridge posts from.

export const DEVICES = ['mobile', 'tablet', 'laptop', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];

/** SPEC §2 builder screen: mobile 375 px, tablet 768 px, laptop 1200 px, desktop 95 % width. */
export const DEVICE_FRAMES: Readonly<Record<Device, { readonly label: string; readonly width: string }>> = {
  mobile: { label: 'Mobile', width: '375px' },
  tablet: { label: 'Tablet', width: '768px' },
  laptop: { label: 'Laptop', width: '1200px' },
  desktop: { label: 'Desktop', width: '95%' },
};

export const DEFAULT_DEVICE: Device = 'desktop';

/**
 * The origin of the preview address ('http://p1.preview.localhost:3000'), or null when the
 * address is not an absolute http(s) URL — then no console message is trusted.
 */
export function previewOriginOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
