import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FanoutMessage, RealtimeFanout } from '../../realtime/realtime-fanout.port.js';
import { FANOUT_MAX_PAYLOAD_BYTES } from '../../realtime/realtime-rules.js';

export interface RealtimeFanoutHarness {
  /** Two API instances on the same carrier. */
  readonly a: RealtimeFanout;
  readonly b: RealtimeFanout;
  /** A fanout whose carrier cannot be reached. */
  readonly unreachable: RealtimeFanout;
  close?(): Promise<void>;
}

/** Collects messages of one topic; `next(n)` resolves once n have arrived (the test's timeout bounds the wait). */
function collector(topic: string) {
  const got: FanoutMessage[] = [];
  let waiters: { n: number; resolve: () => void }[] = [];
  const listener = (m: FanoutMessage) => {
    if (m.topic !== topic) return;
    got.push(m);
    waiters = waiters.filter((w) => (got.length >= w.n ? (w.resolve(), false) : true));
  };
  const next = (n: number) => new Promise<FanoutMessage[]>((resolve) => (got.length >= n ? resolve(got) : waiters.push({ n, resolve: () => resolve(got) })));
  return { got, listener, next };
}

const broadcast = (topic: string, data: string, origin = 'instance-a'): FanoutMessage => ({
  project: 'aaaaaaaaaaaaaaaaaaaa',
  topic,
  origin,
  body: { kind: 'broadcast', event: 'msg', sender: 'socket-1', encoding: 'json', data },
});

/**
 * The RealtimeFanout contract (issue 18): every subscriber of every instance gets each message,
 * a publisher's messages in order, text exactly (Unicode included); a message over the NOTIFY cap
 * is refused with MESSAGE_TOO_LARGE and reaches nobody; unsubscribing stops delivery; an
 * unreachable carrier rejects.
 */
export function realtimeFanoutContract(name: string, makeHarness: () => Promise<RealtimeFanoutHarness>): void {
  describe(`RealtimeFanout contract: ${name}`, () => {
    let h: RealtimeFanoutHarness;
    let n = 0;
    const topic = () => `realtime:contract-${Date.now().toString(36)}-${(n++).toString(36)}`;

    beforeAll(async () => {
      h = await makeHarness();
    }, 60_000);
    afterAll(async () => {
      await h?.close?.();
    }, 60_000);

    it('delivers a message to the subscribers of both instances, the publisher’s own included', async () => {
      const t = topic();
      const onA = collector(t);
      const onB = collector(t);
      const stopA = await h.a.subscribe(onA.listener);
      const stopB = await h.b.subscribe(onB.listener);
      try {
        expect(await h.a.publish(broadcast(t, '{"hello":"wörld ✓ 🎉"}'))).toEqual({ ok: true, value: undefined });
        const [fromA] = await onA.next(1);
        const [fromB] = await onB.next(1);
        expect(fromA).toEqual(broadcast(t, '{"hello":"wörld ✓ 🎉"}'));
        expect(fromB).toEqual(broadcast(t, '{"hello":"wörld ✓ 🎉"}'));
      } finally {
        await stopA();
        await stopB();
      }
    });

    it('keeps one publisher’s messages in order', async () => {
      const t = topic();
      const onB = collector(t);
      const stop = await h.b.subscribe(onB.listener);
      try {
        for (let i = 0; i < 20; i += 1) await h.a.publish(broadcast(t, String(i)));
        const got = await onB.next(20);
        expect(got.map((m) => (m.body.kind === 'broadcast' ? m.body.data : ''))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
      } finally {
        await stop();
      }
    });

    it('refuses a message over the cap with MESSAGE_TOO_LARGE, delivering nothing, and accepts one just under', async () => {
      const t = topic();
      const onB = collector(t);
      const stop = await h.b.subscribe(onB.listener);
      try {
        const big = await h.a.publish(broadcast(t, 'x'.repeat(FANOUT_MAX_PAYLOAD_BYTES)));
        expect(big).toMatchObject({ ok: false, error: { code: 'REALTIME.MESSAGE_TOO_LARGE' } });
        // Multi-byte characters count as their UTF-8 bytes.
        const wide = await h.a.publish(broadcast(t, 'é'.repeat(FANOUT_MAX_PAYLOAD_BYTES / 2)));
        expect(wide).toMatchObject({ ok: false, error: { code: 'REALTIME.MESSAGE_TOO_LARGE' } });
        const envelope = JSON.stringify(broadcast(t, '')).length;
        const fits = broadcast(t, 'y'.repeat(FANOUT_MAX_PAYLOAD_BYTES - envelope));
        expect(await h.a.publish(fits)).toMatchObject({ ok: true });
        const got = await onB.next(1);
        expect(got[0]).toEqual(fits);
        expect(got).toHaveLength(1);
      } finally {
        await stop();
      }
    });

    it('stops delivering after unsubscribe', async () => {
      const t = topic();
      const stopped = collector(t);
      const still = collector(t);
      const stop = await h.b.subscribe(stopped.listener);
      const keep = await h.b.subscribe(still.listener);
      try {
        await stop();
        await h.a.publish(broadcast(t, 'after'));
        await h.a.publish(broadcast(t, 'after 2'));
        await still.next(2);
        expect(stopped.got).toHaveLength(0);
      } finally {
        await keep();
      }
    });

    it('rejects when the carrier cannot be reached', async () => {
      await expect(h.unreachable.publish(broadcast(topic(), '{}'))).rejects.toThrow();
    });
  });
}
