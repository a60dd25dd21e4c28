import type { Response } from 'express';

/** An AbortSignal that fires when the client goes away before the reply is complete. */
export function abortOnClose(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}
