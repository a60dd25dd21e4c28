import type { NextFunction, Request, Response } from 'express';

/**
 * The JSON body limit of `POST /api/sandbox/{id}/write-file`: a file of up to 5 Mi characters
 * (MAX_FILE_CONTENT_LENGTH) plus JSON escaping. Every other route keeps the default 100 kB.
 */
export const SANDBOX_WRITE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const WRITE_FILE_PATH = /^\/[^/]+\/write-file\/?$/;
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** An error the exception filter answers like body-parser's own (code, status, detail). */
function bodyError(type: string, status: number, message: string): Error & { type: string; status: number } {
  return Object.assign(new Error(message), { type, status });
}

/**
 * Parses write-file's JSON body with the larger limit; mounted on '/api/sandbox' before Nest's
 * parser, which then sees a finished request and leaves it alone. Other requests pass untouched.
 */
export function sandboxWriteFileBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'POST' || !WRITE_FILE_PATH.test(req.path) || !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    next();
    return;
  }
  const charset = /;\s*charset\s*=\s*"?([\w-]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    next(bodyError('charset.unsupported', 415, `unsupported charset "${charset.toUpperCase()}"`));
    return;
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    next(bodyError('encoding.unsupported', 415, `unsupported content encoding "${encoding}"`));
    return;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > SANDBOX_WRITE_BODY_LIMIT_BYTES) {
    req.resume();
    next(bodyError('entity.too.large', 413, 'request entity too large'));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    next(error);
  };
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > SANDBOX_WRITE_BODY_LIMIT_BYTES) {
      chunks.length = 0;
      finish(bodyError('entity.too.large', 413, 'request entity too large'));
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', (error) => finish(error));
  req.on('end', () => {
    if (done) return;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text.trim() === '' ? {} : JSON.parse(text);
      // Like body-parser's strict mode: an object or an array, never a bare value.
      if (typeof body !== 'object' || body === null) throw new Error('not an object');
      (req as Request & { body: unknown }).body = body;
      finish();
    } catch {
      finish(bodyError('entity.parse.failed', 400, 'invalid JSON'));
    }
  });
}
