import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '@kiln/domain/testing';
import { LOCAL_CHECKOUT_TOKEN_TTL_SECONDS, type LocalCheckoutTarget, LocalCheckoutTokens } from './local-checkout-tokens.js';

const secret = new Uint8Array(32).fill(7);
const ana: LocalCheckoutTarget = { kind: 'checkout', sessionId: 'cs_local_1', userId: 'ana' };

describe('LocalCheckoutTokens (the owner capability of local checkout links)', () => {
  it('opens exactly the session and user it was made for', async () => {
    const tokens = new LocalCheckoutTokens(secret, new FixedClock());
    const token = await tokens.sign(ana);
    expect(await tokens.verify(token, ana)).toBe(true);
    expect(await tokens.verify(token, { ...ana, userId: 'ben' })).toBe(false);
    expect(await tokens.verify(token, { ...ana, sessionId: 'cs_local_2' })).toBe(false);
    expect(await tokens.verify(token, { kind: 'portal', customerId: 'cs_local_1' })).toBe(false);
  });

  it('a portal token opens only its customer, and is no checkout token', async () => {
    const tokens = new LocalCheckoutTokens(secret, new FixedClock());
    const token = await tokens.sign({ kind: 'portal', customerId: 'cus_local_ana' });
    expect(await tokens.verify(token, { kind: 'portal', customerId: 'cus_local_ana' })).toBe(true);
    expect(await tokens.verify(token, { kind: 'portal', customerId: 'cus_local_ben' })).toBe(false);
    expect(await tokens.verify(token, { kind: 'checkout', sessionId: 'cus_local_ana', userId: 'ana' })).toBe(false);
  });

  it('expires after an hour', async () => {
    const clock = new FixedClock();
    const tokens = new LocalCheckoutTokens(secret, clock);
    const token = await tokens.sign(ana);
    clock.advance((LOCAL_CHECKOUT_TOKEN_TTL_SECONDS - 1) * 1000);
    expect(await tokens.verify(token, ana)).toBe(true);
    clock.advance(2000);
    expect(await tokens.verify(token, ana)).toBe(false);
  });

  it('refuses a token of another key, a tampered one, and anything that is not a token', async () => {
    const clock = new FixedClock();
    const tokens = new LocalCheckoutTokens(secret, clock);
    const other = await new LocalCheckoutTokens(new Uint8Array(32).fill(8), clock).sign(ana);
    expect(await tokens.verify(other, ana)).toBe(false);
    const token = await tokens.sign(ana);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(tampered, ana)).toBe(false);
    for (const junk of [undefined, null, '', 'x', 42, ['a'], { token }, 'a'.repeat(5000)]) expect(await tokens.verify(junk, ana)).toBe(false);
  });

  it('link() adds the token to the page URL', async () => {
    const tokens = new LocalCheckoutTokens(secret, new FixedClock());
    const link = await tokens.link('http://localhost:3000/local-checkout/cs_local_1', ana);
    const url = new URL(link);
    expect(url.pathname).toBe('/local-checkout/cs_local_1');
    expect(await tokens.verify(url.searchParams.get('token'), ana)).toBe(true);
  });
});
