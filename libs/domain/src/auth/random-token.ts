import type { RandomSource } from '../shared/random.port.js';

/** `bytes` random bytes from the source as lower-case hex (2 characters per byte). */
export function randomHex(random: RandomSource, bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i += 1) out += random.nextInt(256).toString(16).padStart(2, '0');
  return out;
}

/** `digits` random decimal digits, leading zeros kept (a one-time code). */
export function randomDigits(random: RandomSource, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i += 1) out += String(random.nextInt(10));
  return out;
}
