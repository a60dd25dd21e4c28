import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import { BRIDGE_MAX_TEXT, bridgeScript } from './bridge-script.js';

const ORIGINS = ['http://localhost:5173', 'http://localhost:3000'];

interface Posted {
  readonly message: { source: string; type: string; level: string; text: string; timestamp: string };
  readonly origin: string;
}

/** Runs the bridge in a fresh context with a fake window, console and parent. */
function load(options: { framed?: boolean; postMessage?: (message: unknown, origin: string) => void } = {}) {
  const posted: Posted[] = [];
  const originalCalls: Array<[string, unknown[]]> = [];
  const handlers: Record<string, (event: unknown) => void> = {};
  const parent = {
    postMessage: options.postMessage ?? ((message: unknown, origin: string) => posted.push({ message: message as Posted['message'], origin })),
  };
  const window: Record<string, unknown> = {
    addEventListener: (type: string, handler: (event: unknown) => void) => {
      handlers[type] = handler;
    },
  };
  window['parent'] = options.framed === false ? window : parent;
  const console = {
    log: (...args: unknown[]) => originalCalls.push(['log', args]),
    warn: (...args: unknown[]) => originalCalls.push(['warn', args]),
    error: (...args: unknown[]) => originalCalls.push(['error', args]),
  };
  const context = { window, console, Node: class Node {}, JSON, Date, Object, Array, String, Error };
  runInNewContext(bridgeScript(ORIGINS), context);
  return { console, posted, originalCalls, handlers, context };
}

describe('the preview console bridge', () => {
  it('forwards console.log, warn and error to the parent, once per Kiln origin, and still logs', () => {
    const { console, posted, originalCalls } = load();
    console.log('hello', 42, true);
    console.warn('careful');
    console.error('broken');
    expect(posted.filter((p) => p.origin === ORIGINS[0]).map((p) => [p.message.level, p.message.text])).toEqual([
      ['log', 'hello 42 true'],
      ['warn', 'careful'],
      ['error', 'broken'],
    ]);
    expect(posted.map((p) => p.origin)).toEqual([ORIGINS[0], ORIGINS[1], ORIGINS[0], ORIGINS[1], ORIGINS[0], ORIGINS[1]]);
    expect(posted[0]?.message).toEqual({ source: 'kiln-preview', type: 'console', level: 'log', text: 'hello 42 true', timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) });
    expect(originalCalls).toEqual([
      ['log', ['hello', 42, true]],
      ['warn', ['careful']],
      ['error', ['broken']],
    ]);
  });

  it('stringifies objects safely: cycles, depth, throwing getters, errors, functions, symbols, bigints', () => {
    const { console, posted } = load();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic['self'] = cyclic;
    const hostile = {};
    Object.defineProperty(hostile, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    console.log(cyclic, { a: { b: { c: { d: { e: 1 } } } } }, hostile, [1, 'two', null, undefined]);
    console.error(new TypeError('bad thing'));
    console.log(function named() {}, Symbol('s'), BigInt(10));
    const texts = posted.filter((p) => p.origin === ORIGINS[0]).map((p) => p.message.text);
    expect(texts[0]).toBe('{"name": "a", "self": [Circular]} {"a": {"b": {"c": {"d": [Object]}}}} {"boom": [unreadable]} [1, "two", null, undefined]');
    expect(texts[1]).toContain('TypeError: bad thing');
    expect(texts[2]).toBe('[Function: named] Symbol(s) 10n');
  });

  it('caps the text', () => {
    const { console, posted } = load();
    console.log('x'.repeat(BRIDGE_MAX_TEXT + 50));
    expect(posted[0]?.message.text).toHaveLength(BRIDGE_MAX_TEXT + 1);
  });

  it('forwards uncaught errors and unhandled rejections as errors', () => {
    const { posted, handlers } = load();
    handlers['error']?.({ message: 'Uncaught ReferenceError: x is not defined', filename: 'http://p/src/App.tsx', lineno: 3, colno: 9 });
    handlers['unhandledrejection']?.({ reason: new Error('nope') });
    const texts = posted.filter((p) => p.origin === ORIGINS[0]).map((p) => [p.message.level, p.message.text]);
    expect(texts).toEqual([
      ['error', 'Uncaught ReferenceError: x is not defined (http://p/src/App.tsx:3:9)'],
      ['error', expect.stringContaining('Unhandled promise rejection: Error: nope')],
    ]);
  });

  it('never throws into the app, even when postMessage does', () => {
    const { console, originalCalls } = load({
      postMessage: () => {
        throw new Error('DataCloneError');
      },
    });
    expect(() => console.log('still fine')).not.toThrow();
    expect(originalCalls).toEqual([['log', ['still fine']]]);
  });

  it('does not forward a console call made while stringifying (no loops)', () => {
    const { console, posted } = load();
    const sneaky = {};
    Object.defineProperty(sneaky, 'x', {
      enumerable: true,
      get() {
        console.log('inner');
        return 1;
      },
    });
    console.log(sneaky);
    expect(posted.filter((p) => p.origin === ORIGINS[0]).map((p) => p.message.text)).toEqual(['{"x": 1}']);
  });

  it('does nothing outside a frame, and installs itself once', () => {
    const alone = load({ framed: false });
    alone.console.log('x');
    expect(alone.posted).toEqual([]);
    const twice = load();
    runInNewContext(bridgeScript(ORIGINS), twice.context);
    twice.console.log('once');
    expect(twice.posted).toHaveLength(ORIGINS.length);
  });

  it('embeds the origins as data, never as markup', () => {
    expect(bridgeScript(['http://x</script><script>alert(1)//'])).not.toContain('</script>');
  });

  describe('picking an element for the chat', () => {
    const header = { nodeType: 1, tagName: 'HEADER', parentElement: { nodeType: 1, tagName: 'BODY', parentElement: null }, previousElementSibling: null };
    const heading = { nodeType: 1, tagName: 'H1', innerText: '  Pantry\n ', parentElement: header, previousElementSibling: { tagName: 'H1' } };
    const event = (target: unknown, extra: Record<string, unknown> = {}) => {
      const calls: string[] = [];
      return { target, calls, preventDefault: () => calls.push('preventDefault'), stopImmediatePropagation: () => calls.push('stop'), ...extra };
    };
    const fromBuilder = (parent: unknown, on: boolean, origin = ORIGINS[0]) => ({ source: parent, origin, data: { source: 'kiln-builder', type: 'pick', on } });

    it('is off until the builder turns it on: a click is the app’s', () => {
      const { handlers, posted } = load();
      const click = event(heading);
      handlers['click']?.(click);
      expect(click.calls).toEqual([]);
      expect(posted).toEqual([]);
    });

    it('takes the click from the app and posts the element to the builder, once, then is off', () => {
      const { handlers, posted, context } = load();
      handlers['message']?.(fromBuilder((context.window as Record<string, unknown>)['parent'], true));
      const click = event(heading);
      handlers['click']?.(click);
      expect(click.calls).toEqual(['preventDefault', 'stop']);
      expect(posted.map((p) => p.origin)).toEqual(ORIGINS);
      expect(posted[0]?.message).toEqual({ source: 'kiln-preview', type: 'element-selected', element: { tag: 'h1', text: 'Pantry', selector: 'header > h1:nth-of-type(2)' } });
      const next = event(heading);
      handlers['click']?.(next);
      expect(next.calls).toEqual([]);
      expect(posted).toHaveLength(ORIGINS.length);
    });

    it('obeys only the parent on a Kiln origin (the app or another frame cannot turn it on)', () => {
      const { handlers, posted, context } = load();
      const parent = (context.window as Record<string, unknown>)['parent'];
      handlers['message']?.(fromBuilder(parent, true, 'http://evil.example'));
      handlers['message']?.(fromBuilder({}, true));
      handlers['message']?.({ source: parent, origin: ORIGINS[0], data: { source: 'kiln-builder', type: 'pick', on: 'yes' } });
      handlers['click']?.(event(heading));
      expect(posted).toEqual([]);
    });

    it('Escape cancels and says so; the builder can also turn it off', () => {
      const { handlers, posted, context } = load();
      const parent = (context.window as Record<string, unknown>)['parent'];
      handlers['message']?.(fromBuilder(parent, true));
      handlers['keydown']?.(event(heading, { key: 'Escape' }));
      expect(posted[0]?.message).toEqual({ source: 'kiln-preview', type: 'pick-cancelled' });
      handlers['message']?.(fromBuilder(parent, true));
      handlers['message']?.(fromBuilder(parent, false));
      handlers['click']?.(event(heading));
      expect(posted).toHaveLength(ORIGINS.length);
    });
  });
});
