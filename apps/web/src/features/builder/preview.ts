// The live preview's pure rules: device sizes (SPEC §2) and the origin the console bridge posts from.

export const DEVICES = ['mobile', 'tablet', 'laptop', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];

export interface DeviceFrame {
  readonly label: string;
  /** The app's viewport width in CSS pixels. */
  readonly width: number;
  /** Wider panes widen the viewport to fill them (the desktop frame). */
  readonly fill: boolean;
}

/**
 * Device sizes, strictly increasing: mobile 375 px, tablet 768 px, laptop 1200 px (SPEC §2),
 * desktop 1440 px or the pane's width when that is wider (not SPEC's "95% width": see
 * docs/decisions.md). A pane narrower than the device scales the frame down (fitPreviewFrame)
 * instead of cropping it.
 */
export const DEVICE_FRAMES: Readonly<Record<Device, DeviceFrame>> = {
  mobile: { label: 'Mobile', width: 375, fill: false },
  tablet: { label: 'Tablet', width: 768, fill: false },
  laptop: { label: 'Laptop', width: 1200, fill: false },
  desktop: { label: 'Desktop', width: 1440, fill: true },
};

/** "Laptop (1200 px)", "Desktop (1440 px or wider)": the device button's tooltip. */
export function deviceFrameHint(frame: DeviceFrame): string {
  return `${frame.label} (${frame.width} px${frame.fill ? ' or wider' : ''})`;
}

export interface FittedFrame {
  /** The app's viewport, in CSS pixels before scaling. */
  readonly width: number;
  readonly height: number;
  /** 0 < scale <= 1: the CSS transform that makes the viewport fit the pane. */
  readonly scale: number;
}

/**
 * How the preview frame fits a pane of the given size (CSS pixels available for the frame): the
 * device's width is kept as the app's viewport and the frame is scaled down to the pane's width
 * when the pane is narrower; its height is the pane's height before scaling, so the scaled frame
 * fills the pane's height. A filling device widens to a wider pane. An unmeasured pane (0, NaN)
 * leaves the frame unscaled.
 */
export function fitPreviewFrame(pane: { readonly width: number; readonly height: number }, frame: DeviceFrame): FittedFrame {
  const paneWidth = Number.isFinite(pane.width) && pane.width > 0 ? pane.width : 0;
  const paneHeight = Number.isFinite(pane.height) && pane.height > 0 ? pane.height : 0;
  if (paneWidth === 0) return { width: frame.width, height: paneHeight, scale: 1 };
  const width = frame.fill ? Math.max(frame.width, paneWidth) : frame.width;
  const scale = Math.min(1, paneWidth / width);
  return { width, height: paneHeight / scale, scale };
}

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
