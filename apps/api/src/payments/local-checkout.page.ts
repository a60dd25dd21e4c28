import type { LocalCheckoutSession } from '@kiln/adapters';
import type { SubscriptionSnapshot } from '@kiln/domain';

/** The exact accessible names of the buttons on the local pages (Playwright tests use them). */
export const LOCAL_CHECKOUT_BUTTONS = { pay: 'Pay', cancel: 'Cancel', cancelSubscription: 'Cancel subscription', back: 'Back to Kiln' } as const;

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const layout = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0;padding:24px}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px #0002}
.banner{background:#fef3c7;border:1px solid #f59e0b;color:#92400e;border-radius:8px;padding:8px 12px;font-weight:600;margin-bottom:16px}
h1{font-size:20px;margin:0 0 8px} dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px} dt{color:#71717a}
.row{display:flex;gap:12px;margin-top:20px} button{flex:1;font:inherit;padding:10px;border-radius:8px;border:1px solid #d4d4d8;background:#fff;cursor:pointer}
button.primary{background:#18181b;color:#fff;border-color:#18181b} a{color:inherit}
</style></head><body><main>
<div class="banner" role="note">TEST CHECKOUT — no real payment is taken</div>
${body}
</main></body></html>`;

/** The hidden field that carries the link's capability into each button's POST (LocalCheckoutTokens). */
const capability = (token: string): string => `<input type="hidden" name="token" value="${escape(token)}">`;

export interface PriceLabel {
  readonly product: string;
  readonly amount: string;
}

export function checkoutPage(session: LocalCheckoutSession, price: PriceLabel, token: string): string {
  const state = session.completed ? '<p role="status">This checkout is already paid.</p>' : session.canceled ? '<p role="status">This checkout was canceled.</p>' : '';
  const base = `/local-checkout/${encodeURIComponent(session.id)}`;
  return layout(
    'Kiln test checkout',
    `<h1>Kiln — ${escape(price.product)}</h1>
<dl><dt>Amount</dt><dd>${escape(price.amount)}</dd><dt>Account</dt><dd>${escape(session.email)}</dd></dl>
${state}
<div class="row">
<form method="post" action="${base}/cancel" style="flex:1;display:flex">${capability(token)}<button type="submit">${LOCAL_CHECKOUT_BUTTONS.cancel}</button></form>
<form method="post" action="${base}/complete" style="flex:1;display:flex">${capability(token)}<button type="submit" class="primary"${session.canceled ? ' disabled' : ''}>${LOCAL_CHECKOUT_BUTTONS.pay}</button></form>
</div>`,
  );
}

export function portalPage(customerId: string, subscriptions: readonly SubscriptionSnapshot[], appUrl: string, token: string): string {
  const rows = subscriptions
    .map(
      (s) => `<section><h2 style="font-size:16px">${escape(s.planId)} (${escape(s.status)})</h2>
<dl><dt>Period ends</dt><dd>${escape(s.currentPeriodEnd.toISOString())}</dd><dt>Renews</dt><dd>${s.cancelAtPeriodEnd ? 'no — ends at period end' : 'yes'}</dd></dl>
${s.cancelAtPeriodEnd ? '' : `<form method="post" action="/local-checkout/portal/${encodeURIComponent(customerId)}/cancel/${encodeURIComponent(s.id)}">${capability(token)}<button type="submit">${LOCAL_CHECKOUT_BUTTONS.cancelSubscription}</button></form>`}
</section>`,
    )
    .join('');
  return layout(
    'Kiln test customer portal',
    `<h1>Kiln — manage subscription</h1>${rows || '<p>No active subscription.</p>'}
<p><a href="${escape(appUrl)}/settings">${LOCAL_CHECKOUT_BUTTONS.back}</a></p>`,
  );
}
