import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RandomSource } from '../shared/random.port.js';
import { ScriptedRandom, SeededRandom } from '../testing/scripted-random.js';
import { GenerateReferralCode } from './generate-referral-code.use-case.js';
import {
  MAX_REFERRAL_CODE_ATTEMPTS,
  REFERRAL_CODE_ALPHABET,
  type ReferralCode,
  parseReferralCode,
  randomReferralCode,
  shareLink,
} from './referral-code.js';
import type { ReferralCodes } from './referral-codes.port.js';

/** SPEC §5: 6 characters from uppercase letters and digits, without I, O, 0 and 1. */
const SPEC_CODE = /^[A-HJ-NP-Z2-9]{6}$/;

/** A ReferralCodes stub: the first `takenCount` codes asked about are taken; it records every call. */
class CountingCodes implements ReferralCodes {
  readonly asked: string[] = [];
  constructor(private readonly takenCount: number) {}
  async isTaken(code: ReferralCode): Promise<boolean> {
    this.asked.push(code);
    return this.asked.length <= this.takenCount;
  }
}

/** A random source reading an fc.infiniteStream of arbitrary integers (any sign, any size). */
function streamRandom(stream: fc.Stream<number>): RandomSource {
  const it = stream[Symbol.iterator]();
  return {
    nextInt(max) {
      const v = it.next().value as number;
      return ((v % max) + max) % max;
    },
  };
}

const validCode = fc
  .array(fc.constantFrom(...REFERRAL_CODE_ALPHABET), { minLength: 6, maxLength: 6 })
  .map((cs) => cs.join(''));

describe('the referral-code alphabet', () => {
  it('is exactly the uppercase letters and digits without I, O, 0 and 1', () => {
    const expected = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'].filter((c) => !'IO01'.includes(c));
    expect([...REFERRAL_CODE_ALPHABET].sort()).toEqual(expected.sort());
    expect(new Set(REFERRAL_CODE_ALPHABET).size).toBe(32);
  });
});

describe('randomReferralCode', () => {
  it('always gives 6 characters of the SPEC alphabet, for any scripted integers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 20 }), (values) => {
        expect(randomReferralCode(new ScriptedRandom(values))).toMatch(SPEC_CODE);
      }),
      { numRuns: 500 },
    );
  });

  it('always gives 6 characters of the SPEC alphabet, for an infinite stream of integers', () => {
    fc.assert(
      fc.property(fc.infiniteStream(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (stream) => {
        expect(randomReferralCode(streamRandom(stream))).toMatch(SPEC_CODE);
      }),
      { numRuns: 500 },
    );
  });

  it('maps each draw to one character, in order, and asks for a draw below 32', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 31 }), { minLength: 6, maxLength: 6 }), (draws) => {
        const asked: number[] = [];
        let i = 0;
        const code = randomReferralCode({
          nextInt(max) {
            asked.push(max);
            return draws[i++] ?? 0;
          },
        });
        expect(asked).toEqual([32, 32, 32, 32, 32, 32]);
        expect(code).toBe(draws.map((d) => REFERRAL_CODE_ALPHABET[d]).join(''));
      }),
    );
  });

  it('can produce every character of the alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 32; i += 1) seen.add(randomReferralCode(new ScriptedRandom([i])).charAt(0));
    expect(seen.size).toBe(32);
  });
});

describe('GenerateReferralCode (SPEC §5: up to 10 attempts)', () => {
  it('fails after exactly 10 uniqueness checks when every code is taken', async () => {
    const codes = new CountingCodes(Number.POSITIVE_INFINITY);
    const r = await new GenerateReferralCode(codes, new SeededRandom(7)).execute();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('REFERRALS.CODE_GENERATION_FAILED');
      expect(r.error.message).toBe('Unable to generate unique referral code');
      expect(r.error.attempts).toBe(10);
    }
    expect(codes.asked).toHaveLength(MAX_REFERRAL_CODE_ATTEMPTS);
    expect(MAX_REFERRAL_CODE_ATTEMPTS).toBe(10);
  });

  it('returns the k-th drawn code after exactly k checks when the first k − 1 are taken (k ≤ 10)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10 }), fc.integer(), async (k, seed) => {
        const codes = new CountingCodes(k - 1);
        const r = await new GenerateReferralCode(codes, new SeededRandom(seed)).execute();
        expect(codes.asked).toHaveLength(k);
        expect(r).toEqual({ ok: true, value: codes.asked[k - 1] });
        for (const c of codes.asked) expect(c).toMatch(SPEC_CODE);
      }),
    );
  });

  it('never checks more than 10 codes, however many are taken', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: 1000 }), fc.integer(), async (taken, seed) => {
        const codes = new CountingCodes(taken);
        const r = await new GenerateReferralCode(codes, new SeededRandom(seed)).execute();
        expect(codes.asked).toHaveLength(10);
        expect(r.ok).toBe(false);
      }),
    );
  });
});

describe('parseReferralCode', () => {
  it('accepts every valid code, also in lower case and with surrounding spaces', () => {
    fc.assert(
      fc.property(
        validCode,
        fc.boolean(),
        fc.constantFrom('', ' ', '  ', '\t', '\n'),
        fc.constantFrom('', ' ', '   ', '\t'),
        (code, lower, before, after) => {
          const typed = `${before}${lower ? code.toLowerCase() : code}${after}`;
          expect(parseReferralCode(typed)).toEqual({ ok: true, value: code });
        },
      ),
    );
  });

  it.each([['ABCDEI'], ['OABCDE'], ['ABC0DE'], ['1ABCDE'], ['abcdei'], ['abcdeo']])('rejects %p (I, O, 0, 1 are excluded)', (input) => {
    const r = parseReferralCode(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('REFERRALS.INVALID_CODE');
      expect(r.error.input).toBe(input);
    }
  });

  it('rejects any code containing I, O, 0 or 1', () => {
    fc.assert(
      fc.property(validCode, fc.integer({ min: 0, max: 5 }), fc.constantFrom('I', 'O', '0', '1', 'i', 'o'), (code, at, bad) => {
        const input = code.slice(0, at) + bad + code.slice(at + 1);
        expect(parseReferralCode(input).ok).toBe(false);
      }),
    );
  });

  it('rejects any length other than 6', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...REFERRAL_CODE_ALPHABET), { maxLength: 20 }).filter((cs) => cs.length !== 6),
        (cs) => {
          expect(parseReferralCode(cs.join('')).ok).toBe(false);
        },
      ),
    );
  });

  it('rejects spaces inside a code and other characters', () => {
    for (const input of ['ABC DEF', 'ABC-DE', 'ABCDE!', 'ÄBCDEF', '']) expect(parseReferralCode(input).ok).toBe(false);
  });
});

describe('shareLink (SPEC §2)', () => {
  const code = 'ABC234' as ReferralCode;

  it('is the origin plus ?ref=CODE, with or without a trailing slash', () => {
    expect(shareLink('https://kiln.dev/', code)).toBe('https://kiln.dev/?ref=ABC234');
    expect(shareLink('https://kiln.dev', code)).toBe('https://kiln.dev/?ref=ABC234');
    expect(shareLink('https://kiln.dev///', code)).toBe('https://kiln.dev/?ref=ABC234');
  });

  it('puts a code that parses back to itself after ?ref=', () => {
    fc.assert(
      fc.property(validCode, (c) => {
        const link = shareLink('https://kiln.dev/', c as ReferralCode);
        const ref = link.slice(link.indexOf('?ref=') + '?ref='.length);
        expect(parseReferralCode(ref)).toEqual({ ok: true, value: c });
      }),
    );
  });
});
