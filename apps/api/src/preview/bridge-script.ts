/** Where the preview serves the console bridge; HTML responses load it first thing in <head>. */
export const BRIDGE_PATH = '/__kiln/bridge.js';
export const BRIDGE_TAG = `<script src="${BRIDGE_PATH}"></script>`;
/** Longest console text the bridge forwards (the builder keeps at most 200 entries, SPEC §9). */
export const BRIDGE_MAX_TEXT = 10_000;

/**
 * The console bridge that runs inside every previewed page (docs/sandbox-api.md): it forwards
 * console.log/warn/error, uncaught errors and unhandled rejections to the builder with
 * `window.parent.postMessage({ source: 'kiln-preview', type: 'console', level, text, timestamp }, origin)`,
 * and, when the builder asks (`{ source: 'kiln-builder', type: 'pick', on }`), lets the person
 * pick an element (`{ type: 'element-selected', element: { tag, text, selector } }`).
 *
 * The message is posted once per Kiln web origin, each as the target origin, so the browser
 * delivers it only when the parent really is Kiln (a page framing the preview elsewhere gets
 * nothing). Written in plain ES5 that must never throw into the app: every step is guarded,
 * objects are stringified safely (cycles, depth, getters that throw, DOM nodes, errors), the
 * original console methods still run, and a console call made while stringifying is not
 * forwarded again.
 */
export function bridgeScript(appOrigins: readonly string[]): string {
  return `/* Kiln preview console bridge */
(function () {
  'use strict';
  var ORIGINS = ${JSON.stringify(appOrigins).replace(/</g, '\\u003c')};
  var MAX_TEXT = ${BRIDGE_MAX_TEXT};
  var MAX_DEPTH = 4;
  var MAX_KEYS = 50;
  try {
    if (window.__kilnPreviewBridge) return;
    window.__kilnPreviewBridge = true;
  } catch (e) { return; }
  var target;
  try { target = window.parent; } catch (e) { target = null; }
  if (!target || target === window) return;
  var busy = false;

  function describe(value, depth, seen) {
    try {
      if (value === null) return 'null';
      var type = typeof value;
      if (type === 'string') return depth === 0 ? value : JSON.stringify(value);
      if (type === 'undefined') return 'undefined';
      if (type === 'number' || type === 'boolean') return String(value);
      if (type === 'bigint') return String(value) + 'n';
      if (type === 'symbol') return value.toString();
      if (type === 'function') return '[Function' + (value.name ? ': ' + value.name : '') + ']';
      if (value instanceof Error) {
        var head = (value.name || 'Error') + ': ' + value.message;
        return depth === 0 && typeof value.stack === 'string' && value.stack.indexOf(value.message) >= 0 ? value.stack : head;
      }
      if (typeof Node !== 'undefined' && value instanceof Node) return '<' + String(value.nodeName).toLowerCase() + '>';
      if (seen.indexOf(value) >= 0) return '[Circular]';
      if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]';
      seen.push(value);
      var parts = [];
      if (Array.isArray(value)) {
        for (var i = 0; i < value.length && i < MAX_KEYS; i++) parts.push(describe(value[i], depth + 1, seen));
        if (value.length > MAX_KEYS) parts.push('…');
        seen.pop();
        return '[' + parts.join(', ') + ']';
      }
      var keys = Object.keys(value);
      for (var k = 0; k < keys.length && k < MAX_KEYS; k++) {
        var item;
        try { item = describe(value[keys[k]], depth + 1, seen); } catch (e) { item = '[unreadable]'; }
        parts.push(JSON.stringify(keys[k]) + ': ' + item);
      }
      if (keys.length > MAX_KEYS) parts.push('…');
      seen.pop();
      return '{' + parts.join(', ') + '}';
    } catch (e) {
      return '[unprintable]';
    }
  }

  function post(level, args) {
    if (busy) return;
    busy = true;
    try {
      var texts = [];
      for (var i = 0; i < args.length; i++) texts.push(describe(args[i], 0, []));
      var text = texts.join(' ');
      if (text.length > MAX_TEXT) text = text.slice(0, MAX_TEXT) + '…';
      var message = { source: 'kiln-preview', type: 'console', level: level, text: text, timestamp: new Date().toISOString() };
      for (var o = 0; o < ORIGINS.length; o++) {
        try { target.postMessage(message, ORIGINS[o]); } catch (e) { /* never break the app */ }
      }
    } catch (e) {
      /* never break the app */
    } finally {
      busy = false;
    }
  }

  ['log', 'warn', 'error'].forEach(function (level) {
    try {
      var original = console[level];
      console[level] = function () {
        try { post(level, arguments); } catch (e) { /* ignore */ }
        if (typeof original === 'function') return original.apply(console, arguments);
      };
    } catch (e) { /* a frozen console stays as it is */ }
  });

  // Picking an element for the chat (SPEC §3 builder state: selected element). Only the builder
  // (the parent, on a Kiln origin) turns it on; while on, the hovered element is outlined, a click
  // is taken from the app and posted as { type: 'element-selected', element }, Escape cancels.
  var picking = false;
  var outline = null;

  function postAll(message) {
    for (var o = 0; o < ORIGINS.length; o++) {
      try { target.postMessage(message, ORIGINS[o]); } catch (e) { /* never break the app */ }
    }
  }

  function showOutline(el) {
    try {
      if (typeof document === 'undefined' || !el || !el.getBoundingClientRect) return;
      if (!outline) {
        outline = document.createElement('div');
        outline.setAttribute('data-kiln-outline', '');
        outline.style.cssText = 'position:fixed;z-index:2147483647;pointer-events:none;border:2px solid #6d5efc;background:rgba(109,94,252,0.08);border-radius:3px;transition:all 60ms';
      }
      if (!outline.parentNode) document.documentElement.appendChild(outline);
      var r = el.getBoundingClientRect();
      outline.style.left = r.left - 2 + 'px';
      outline.style.top = r.top - 2 + 'px';
      outline.style.width = r.width + 4 + 'px';
      outline.style.height = r.height + 4 + 'px';
    } catch (e) { /* ignore */ }
  }

  function setPicking(on) {
    picking = on;
    try {
      if (!on && outline && outline.parentNode) outline.parentNode.removeChild(outline);
      if (typeof document !== 'undefined') document.documentElement.style.cursor = on ? 'crosshair' : '';
    } catch (e) { /* ignore */ }
  }

  function selectorOf(el) {
    var parts = [];
    try {
      for (var node = el; node && node.nodeType === 1 && parts.length < 4; node = node.parentElement) {
        var tag = String(node.tagName).toLowerCase();
        if (tag === 'html' || tag === 'body') break;
        var part = tag;
        if (node.id && /^[A-Za-z][\w-]{0,40}$/.test(node.id)) { parts.unshift(part + '#' + node.id); break; }
        var index = 1;
        for (var sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) if (sib.tagName === node.tagName) index++;
        if (index > 1) part += ':nth-of-type(' + index + ')';
        parts.unshift(part);
      }
    } catch (e) { /* ignore */ }
    return parts.join(' > ');
  }

  function describeElement(el) {
    var text = '';
    try { text = String(el.innerText || el.textContent || ''); } catch (e) { /* ignore */ }
    text = text.replace(/\s+/g, ' ').trim();
    if (text.length > 200) text = text.slice(0, 200);
    return { tag: String(el.tagName).toLowerCase(), text: text, selector: selectorOf(el) };
  }

  try {
    window.addEventListener('message', function (event) {
      try {
        if (event.source !== target || ORIGINS.indexOf(event.origin) < 0) return;
        var d = event.data;
        if (d && d.source === 'kiln-builder' && d.type === 'pick') setPicking(d.on === true);
      } catch (e) { /* ignore */ }
    });
    window.addEventListener('mouseover', function (event) {
      if (picking) showOutline(event.target);
    }, true);
    var swallow = function (event) {
      if (!picking) return;
      try { event.preventDefault(); event.stopImmediatePropagation(); } catch (e) { /* ignore */ }
    };
    window.addEventListener('mousedown', swallow, true);
    window.addEventListener('pointerdown', swallow, true);
    window.addEventListener('mouseup', swallow, true);
    window.addEventListener('click', function (event) {
      if (!picking) return;
      swallow(event);
      var el = event.target;
      setPicking(false);
      if (el && el.nodeType === 1) postAll({ source: 'kiln-preview', type: 'element-selected', element: describeElement(el) });
    }, true);
    window.addEventListener('keydown', function (event) {
      if (!picking || event.key !== 'Escape') return;
      swallow(event);
      setPicking(false);
      postAll({ source: 'kiln-preview', type: 'pick-cancelled' });
    }, true);
  } catch (e) { /* ignore */ }

  try {
    window.addEventListener('error', function (event) {
      try {
        var where = event.filename ? ' (' + event.filename + ':' + event.lineno + ':' + event.colno + ')' : '';
        post('error', [event.error instanceof Error ? event.error : String(event.message) + where]);
      } catch (e) { /* ignore */ }
    });
    window.addEventListener('unhandledrejection', function (event) {
      try { post('error', ['Unhandled promise rejection:', event.reason]); } catch (e) { /* ignore */ }
    });
  } catch (e) { /* ignore */ }
})();
`;
}
