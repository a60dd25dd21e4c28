import type { QrCodeRenderer } from '@kiln/domain';
import QRCode from 'qrcode';

/**
 * QR codes as SVG documents with the qrcode library. The enrol reply carries the bare SVG, as
 * GoTrue's does; auth-js turns it into a `data:image/svg+xml;utf-8,` URL for an <img>.
 */
export class QrcodeSvgRenderer implements QrCodeRenderer {
  svg(text: string): Promise<string> {
    // Level M: the URI stays small enough for a phone camera at a glance, with some damage tolerance.
    return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }
}
