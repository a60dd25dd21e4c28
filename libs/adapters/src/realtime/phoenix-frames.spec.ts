import { describe, expect, it } from '@jest/globals';
import Serializer from '@supabase/realtime-js/dist/main/lib/serializer.js';
import { decodeClientFrame, encodeBroadcast, encodeMessage } from './phoenix-frames.js';

// realtime-js's own serializer: what it encodes we decode, what we encode it decodes.
const serializer = new (Serializer as unknown as { default: new () => { encode(m: unknown, cb: (r: unknown) => void): void; decode(r: unknown, cb: (m: unknown) => void): void } }).default();
const encode = (m: unknown) => {
  let out: unknown;
  serializer.encode(m, (r) => (out = r));
  return out;
};

describe('Phoenix frames (realtime-js 2.109.0, vsn 2.0.0)', () => {
  it('reads realtime-js’s text frames', () => {
    const text = encode({ join_ref: '1', ref: '2', topic: 'realtime:room', event: 'phx_join', payload: { config: {} } }) as string;
    expect(decodeClientFrame(Buffer.from(text), false)).toEqual({ kind: 'message', message: { joinRef: '1', ref: '2', topic: 'realtime:room', event: 'phx_join', payload: { config: {} } } });
  });

  it('reads realtime-js’s binary broadcast pushes, JSON and raw bytes', () => {
    const json = encode({ join_ref: '1', ref: '3', topic: 'realtime:room', event: 'broadcast', payload: { type: 'broadcast', event: 'cursor', payload: { x: 1, s: 'é' } } }) as ArrayBuffer;
    expect(decodeClientFrame(Buffer.from(json), true)).toMatchObject({ kind: 'broadcast', push: { joinRef: '1', ref: '3', topic: 'realtime:room', event: 'cursor', encoding: 'json' } });
    const decoded = decodeClientFrame(Buffer.from(json), true);
    expect(decoded.kind === 'broadcast' && JSON.parse(decoded.push.data.toString('utf8'))).toEqual({ x: 1, s: 'é' });
    const raw = encode({ join_ref: null, ref: null, topic: 'realtime:room', event: 'broadcast', payload: { type: 'broadcast', event: 'bytes', payload: Uint8Array.from([0, 255, 7]).buffer } }) as ArrayBuffer;
    const bytes = decodeClientFrame(Buffer.from(raw), true);
    expect(bytes).toMatchObject({ kind: 'broadcast', push: { joinRef: null, ref: null, encoding: 'binary' } });
    expect(bytes.kind === 'broadcast' && [...bytes.push.data]).toEqual([0, 255, 7]);
  });

  it('writes broadcasts realtime-js decodes', () => {
    const frame = encodeBroadcast('realtime:room', 'cursor', 'json', Buffer.from('{"x":1,"s":"é"}'));
    const ab = frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.length);
    let got: unknown;
    serializer.decode(ab, (m) => (got = m));
    expect(got).toEqual({ join_ref: null, ref: null, topic: 'realtime:room', event: 'broadcast', payload: { type: 'broadcast', event: 'cursor', payload: { x: 1, s: 'é' } } });
    let text: unknown;
    serializer.decode(encodeMessage('1', '2', 'realtime:room', 'phx_reply', { status: 'ok', response: {} }), (m) => (text = m));
    expect(text).toEqual({ join_ref: '1', ref: '2', topic: 'realtime:room', event: 'phx_reply', payload: { status: 'ok', response: {} } });
  });

  it('calls anything else malformed', () => {
    for (const [data, binary] of [
      ['not json', false],
      ['{"a":1}', false],
      ['[1,2,3]', false],
      ['[null,null,42,"x",{}]', false],
      ['[null,null,"t","broadcast",{}]', false],
      ['', true],
      ['\u0009abc', true],
      ['\u0003\u0000\u0000\u00ff\u0000\u0000\u0001', true],
      ['\u0003\u0000\u0000\u0000\u0000\u0000\u0001{bad', true],
    ] as const) {
      expect(decodeClientFrame(Buffer.from(data, 'latin1'), binary)).toMatchObject({ kind: 'malformed' });
    }
  });
});
