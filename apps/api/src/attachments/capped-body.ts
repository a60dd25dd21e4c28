import type { Request } from 'express';

/** The body was longer than the cap (the reader stopped there). */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/**
 * The raw request body, read until `maxBytes` and refused (BodyTooLarge) one byte past it:
 * a Content-Length over the cap is refused before reading anything, and a body without one
 * (chunked) is never held beyond the cap.
 */
export async function readCappedBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      req.unpipe();
      req.resume();
      throw new BodyTooLarge();
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}
