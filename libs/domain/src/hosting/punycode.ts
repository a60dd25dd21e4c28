/**
 * Punycode (RFC 3492), the encoder only: an internationalised label becomes the ASCII that DNS
 * carries (`bücher` → `bcher-kva`; the caller adds the `xn--` prefix). Written here
 * because the domain imports nothing; a spec compares it with the platform's URL parser.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_INT = 0x7fffffff;

function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  let d = firstTime ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

/** 0..25 → a..z, 26..35 → 0..9. */
const digit = (d: number): string => String.fromCharCode(d < 26 ? 97 + d : 22 + d);

/**
 * Encodes one label's code points. Returns null on overflow (a label so long or so exotic that
 * the delta passes 2^31 − 1; no valid DNS label gets near it).
 */
export function punycodeEncode(label: string): string | null {
  const input = Array.from(label, (c) => c.codePointAt(0) as number);
  let output = input.filter((c) => c < 0x80).map((c) => String.fromCharCode(c)).join('');
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < input.length) {
    const m = Math.min(...input.filter((c) => c >= n));
    if (m - n > Math.floor((MAX_INT - delta) / (handled + 1))) return null;
    delta += (m - n) * (handled + 1);
    n = m;
    for (const c of input) {
      if (c < n && ++delta > MAX_INT) return null;
      if (c !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digit(q);
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled += 1;
    }
    delta += 1;
    n += 1;
  }
  return output;
}
