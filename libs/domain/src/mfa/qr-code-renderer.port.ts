/** Draws a QR code as an SVG document (the enrol reply's `totp.qr_code`). */
export interface QrCodeRenderer {
  svg(text: string): Promise<string>;
}
