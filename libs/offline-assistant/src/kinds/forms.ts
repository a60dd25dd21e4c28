import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

const FORM_CSS = `.form-layout {
  display: grid;
  gap: 2rem;
  grid-template-columns: repeat(auto-fit, minmax(min(280px, 100%), 1fr));
  align-items: start;
}

.form-card {
  padding: clamp(1.25rem, 4vw, 2rem);
}

.field-row {
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fit, minmax(min(180px, 100%), 1fr));
}

.check {
  display: flex;
  gap: 0.6rem;
  align-items: flex-start;
  font-size: 0.95rem;
}

.check input {
  margin-top: 0.3rem;
  accent-color: var(--primary);
}

.choice-group {
  display: grid;
  gap: 0.5rem;
  grid-template-columns: repeat(auto-fit, minmax(min(150px, 100%), 1fr));
  border: 0;
  padding: 0;
  margin: 0;
}

.choice {
  display: flex;
  gap: 0.6rem;
  align-items: center;
  padding: 0.75rem 1rem;
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 0.75);
  background: var(--card);
  cursor: pointer;
}

.choice:has(input:checked) {
  border-color: var(--primary);
  background: color-mix(in srgb, var(--primary) 8%, var(--card));
}

.choice input {
  accent-color: var(--primary);
}

.strength {
  height: 6px;
  border-radius: 999px;
  background: var(--muted);
  overflow: hidden;
}

.strength span {
  display: block;
  height: 100%;
  transition: width 0.2s ease;
}

.success {
  text-align: center;
  padding: 2rem 1rem;
}

.success-mark {
  display: grid;
  place-items: center;
  width: 3.5rem;
  height: 3.5rem;
  margin: 0 auto 1rem;
  border-radius: 999px;
  background: color-mix(in srgb, var(--success, #16a34a) 15%, var(--card));
  color: var(--success, #16a34a);
  font-size: 1.75rem;
  font-weight: 800;
}
`;

export function contactForm({ spec, topic }: KindContext): KindBlueprint {
  const domain = kebabCase(spec.name).replace(/-/g, '') || 'example';
  const component = `import { useState, type FormEvent } from 'react';
import './Forms.css';

const topics = ['General question', 'Support', 'Partnership', 'Press'];

interface FormState {
  name: string;
  email: string;
  topic: string;
  message: string;
  consent: boolean;
}

type Errors = Partial<Record<keyof FormState, string>>;

const empty: FormState = { name: '', email: '', topic: topics[0] ?? '', message: '', consent: false };

export function validate(form: FormState): Errors {
  const errors: Errors = {};
  if (form.name.trim().length < 2) errors.name = 'Please enter your name.';
  if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(form.email.trim())) errors.email = 'Please enter a valid email address.';
  if (form.message.trim().length < 10) errors.message = 'Please write at least 10 characters.';
  if (!form.consent) errors.consent = 'Please agree so we can reply to you.';
  return errors;
}

export function ContactForm() {
  const [form, setForm] = useState<FormState>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState(false);

  function update<K extends keyof FormState>(field: K, value: FormState[K]) {
    setForm((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length === 0) setSent(true);
  }

  return (
    <section className="section" id="contact-form">
      <div className="wrap form-layout">
        <div>
          <span className="eyebrow">We’re here to help</span>
          <h2>Send us a message</h2>
          <p className="lead">${topic.faqs[0] ? 'Tell us what you need and we’ll get back to you within one working day.' : ''}</p>
          <ul className="checklist">
            <li>hello@${domain}.com</li>
            <li>+1 (555) 014-2026</li>
            <li>Replies within one working day</li>
          </ul>
        </div>
        <div className="card form-card">
          {sent ? (
            <div className="success" role="status">
              <div className="success-mark" aria-hidden="true">
                ✓
              </div>
              <h3>Thanks, {form.name.trim()}!</h3>
              <p className="muted">We’ve received your message about “{form.topic}” and will reply to {form.email.trim()}.</p>
              <button
                type="button"
                className="btn btn-ghost"
                onClick={() => {
                  setForm(empty);
                  setSent(false);
                }}
              >
                Send another message
              </button>
            </div>
          ) : (
            <form className="form" onSubmit={submit} noValidate>
              <div className="field-row">
                <div className="field">
                  <label htmlFor="cf-name">Name</label>
                  <input id="cf-name" className="input" autoComplete="name" value={form.name} onChange={(e) => update('name', e.target.value)} aria-invalid={Boolean(errors.name)} aria-describedby="cf-name-error" />
                  <span id="cf-name-error" className="field-error">
                    {errors.name}
                  </span>
                </div>
                <div className="field">
                  <label htmlFor="cf-email">Email</label>
                  <input id="cf-email" className="input" type="email" autoComplete="email" value={form.email} onChange={(e) => update('email', e.target.value)} aria-invalid={Boolean(errors.email)} aria-describedby="cf-email-error" />
                  <span id="cf-email-error" className="field-error">
                    {errors.email}
                  </span>
                </div>
              </div>
              <div className="field">
                <label htmlFor="cf-topic">Topic</label>
                <select id="cf-topic" className="input" value={form.topic} onChange={(e) => update('topic', e.target.value)}>
                  {topics.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="cf-message">Message</label>
                <textarea id="cf-message" className="input" rows={5} value={form.message} onChange={(e) => update('message', e.target.value)} aria-invalid={Boolean(errors.message)} aria-describedby="cf-message-error" />
                <span id="cf-message-error" className="field-error">
                  {errors.message}
                </span>
              </div>
              <label className="check">
                <input type="checkbox" checked={form.consent} onChange={(e) => update('consent', e.target.checked)} />
                <span>I agree that ${spec.name.replace(/[{}<>]/g, '')} may use my details to reply to this message.</span>
              </label>
              {errors.consent && <span className="field-error">{errors.consent}</span>}
              <button className="btn btn-primary" type="submit">
                Send message
              </button>
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
`;
  return {
    main: [{ name: 'ContactForm', path: 'src/components/ContactForm.tsx', content: component }],
    support: { 'src/components/Forms.css': FORM_CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#contact-form', label: 'Message us' }],
    coreTask: { title: 'Build the contact form', description: 'Name, email, topic, message and consent with inline validation and a thank-you state.' },
  };
}

export function signupForm({ spec, topic }: KindContext): KindBlueprint {
  const password = `export interface Strength {
  score: 0 | 1 | 2 | 3 | 4;
  label: string;
  color: string;
}

const LABELS = ['Too short', 'Weak', 'Fair', 'Good', 'Strong'];
const COLORS = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#15803d'];

/** A simple password score: length, mixed case, digits and symbols. */
export function passwordStrength(password: string): Strength {
  if (password.length < 8) return { score: 0, label: LABELS[0] ?? '', color: COLORS[0] ?? '' };
  let score = 1;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score += 1;
  if (/[0-9]/.test(password)) score += 1;
  if (/[^A-Za-z0-9]/.test(password) || password.length >= 14) score += 1;
  const s = Math.min(score, 4) as Strength['score'];
  return { score: s, label: LABELS[s] ?? '', color: COLORS[s] ?? '' };
}
`;
  const plans = topic.tiers.slice(0, 2).map(([name, price]) => ({ name, price }));
  const component = `import { useState, type FormEvent } from 'react';
import { passwordStrength } from '../password';
import './Forms.css';

const plans = [
${plans.map((p) => `  { id: ${str(kebabCase(p.name) || 'plan')}, name: ${str(p.name)}, price: ${str(p.price === 0 ? 'Free' : '$' + p.price + ' / month')} },`).join('\n')}
];

const benefits = [${topic.features
    .slice(0, 3)
    .map((f) => str(f.title + ' — ' + f.text))
    .join(', ')}];

interface Account {
  name: string;
  email: string;
  password: string;
  confirm: string;
  plan: string;
  terms: boolean;
}

type Errors = Partial<Record<keyof Account, string>>;

const empty: Account = { name: '', email: '', password: '', confirm: '', plan: plans[0]?.id ?? '', terms: false };

export function validate(account: Account): Errors {
  const errors: Errors = {};
  if (account.name.trim().length < 2) errors.name = 'Please enter your full name.';
  if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(account.email.trim())) errors.email = 'Please enter a valid email address.';
  if (passwordStrength(account.password).score < 2) errors.password = 'Use at least 8 characters with a mix of letters and numbers.';
  if (account.confirm !== account.password || account.confirm === '') errors.confirm = 'The passwords do not match.';
  if (!account.terms) errors.terms = 'Please accept the terms to continue.';
  return errors;
}

export function SignupForm() {
  const [account, setAccount] = useState<Account>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState(false);
  const strength = passwordStrength(account.password);

  function update<K extends keyof Account>(field: K, value: Account[K]) {
    setAccount((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(account);
    setErrors(found);
    if (Object.keys(found).length === 0) setCreated(true);
  }

  return (
    <section className="section" id="signup">
      <div className="wrap form-layout">
        <div>
          <span className="eyebrow">Join ${spec.name.replace(/[{}<>]/g, '')}</span>
          <h2>Create your account in a minute</h2>
          <ul className="checklist">
            {benefits.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>
        </div>
        <div className="card form-card">
          {created ? (
            <div className="success" role="status">
              <div className="success-mark" aria-hidden="true">
                ✓
              </div>
              <h3>Welcome aboard, {account.name.trim().split(' ')[0]}!</h3>
              <p className="muted">We sent a confirmation link to {account.email.trim()}.</p>
            </div>
          ) : (
            <form className="form" onSubmit={submit} noValidate>
              <div className="field">
                <label htmlFor="su-name">Full name</label>
                <input id="su-name" className="input" autoComplete="name" value={account.name} onChange={(e) => update('name', e.target.value)} aria-invalid={Boolean(errors.name)} />
                {errors.name && <span className="field-error">{errors.name}</span>}
              </div>
              <div className="field">
                <label htmlFor="su-email">Email</label>
                <input id="su-email" className="input" type="email" autoComplete="email" value={account.email} onChange={(e) => update('email', e.target.value)} aria-invalid={Boolean(errors.email)} />
                {errors.email && <span className="field-error">{errors.email}</span>}
              </div>
              <div className="field-row">
                <div className="field">
                  <label htmlFor="su-password">Password</label>
                  <input id="su-password" className="input" type="password" autoComplete="new-password" value={account.password} onChange={(e) => update('password', e.target.value)} aria-invalid={Boolean(errors.password)} />
                  <div className="strength" aria-hidden="true">
                    <span style={{ width: (strength.score / 4) * 100 + '%', background: strength.color }} />
                  </div>
                  <span className="muted" style={{ fontSize: '0.85rem' }}>
                    {account.password === '' ? 'At least 8 characters' : strength.label}
                  </span>
                  {errors.password && <span className="field-error">{errors.password}</span>}
                </div>
                <div className="field">
                  <label htmlFor="su-confirm">Confirm password</label>
                  <input id="su-confirm" className="input" type="password" autoComplete="new-password" value={account.confirm} onChange={(e) => update('confirm', e.target.value)} aria-invalid={Boolean(errors.confirm)} />
                  {errors.confirm && <span className="field-error">{errors.confirm}</span>}
                </div>
              </div>
              <fieldset className="choice-group">
                <legend className="visually-hidden">Plan</legend>
                {plans.map((plan) => (
                  <label className="choice" key={plan.id}>
                    <input type="radio" name="plan" value={plan.id} checked={account.plan === plan.id} onChange={() => update('plan', plan.id)} />
                    <span>
                      <strong>{plan.name}</strong>
                      <br />
                      <span className="muted">{plan.price}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
              <label className="check">
                <input type="checkbox" checked={account.terms} onChange={(e) => update('terms', e.target.checked)} />
                <span>I accept the terms of service and privacy policy.</span>
              </label>
              {errors.terms && <span className="field-error">{errors.terms}</span>}
              <button className="btn btn-primary" type="submit">
                Create account
              </button>
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
`;
  return {
    main: [{ name: 'SignupForm', path: 'src/components/SignupForm.tsx', content: component }],
    support: { 'src/password.ts': password, 'src/components/Forms.css': FORM_CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#signup', label: 'Sign up' }],
    coreTask: { title: 'Build the sign-up form', description: 'Name, email, password with a strength meter, confirmation, plan choice and terms, validated inline.' },
  };
}

export function pricing({ topic }: KindContext): KindBlueprint {
  const tiers = topic.tiers;
  const allPerks = [...new Set(tiers.flatMap(([, , , perks]) => perks))];
  const component = `import { useState } from 'react';
import './Pricing.css';

type Billing = 'monthly' | 'annual';

const tiers = [
${tiers.map(([name, monthly, blurb, perks]) => `  { name: ${str(name)}, monthly: ${monthly}, blurb: ${str(blurb)}, perks: [${perks.map((p) => str(p)).join(', ')}] },`).join('\n')}
];

/** Annual billing: two months free. */
export function priceFor(monthly: number, billing: Billing): number {
  return billing === 'monthly' ? monthly : Math.round((monthly * 10) / 12);
}

export function PricingPlans() {
  const [billing, setBilling] = useState<Billing>('monthly');

  return (
    <section className="section" id="plans">
      <div className="wrap">
        <div className="billing-toggle" role="group" aria-label="Billing period">
          <button type="button" className="chip" aria-pressed={billing === 'monthly'} onClick={() => setBilling('monthly')}>
            Monthly
          </button>
          <button type="button" className="chip" aria-pressed={billing === 'annual'} onClick={() => setBilling('annual')}>
            Annual <span className="save">2 months free</span>
          </button>
        </div>
        <div className="grid">
          {tiers.map((tier, index) => {
            const price = priceFor(tier.monthly, billing);
            return (
              <article className={index === 1 ? 'card tier-featured' : 'card'} key={tier.name}>
                {index === 1 && <span className="badge">Most popular</span>}
                <h3 style={{ marginTop: '0.5rem' }}>{tier.name}</h3>
                <p className="muted">{tier.blurb}</p>
                <div className="price">
                  {price === 0 ? 'Free' : '$' + price}
                  {price > 0 && <span className="muted per"> / month</span>}
                </div>
                <p className="muted billed">{price === 0 ? 'Free forever' : billing === 'annual' ? 'Billed $' + price * 12 + ' yearly' : 'Billed monthly'}</p>
                <ul className="checklist">
                  {tier.perks.map((perk) => (
                    <li key={perk}>{perk}</li>
                  ))}
                </ul>
                <a className={index === 1 ? 'btn btn-primary' : 'btn btn-ghost'} href="#faq" style={{ width: '100%' }}>
                  {tier.monthly === 0 ? 'Start for free' : 'Choose ' + tier.name}
                </a>
              </article>
            );
          })}
        </div>
      </div>
    </section>
  );
}
`;
  const comparison = `const tiers = [${tiers.map(([name]) => str(name)).join(', ')}];

const rows: { feature: string; included: boolean[] }[] = [
${allPerks.map((perk) => `  { feature: ${str(perk)}, included: [${tiers.map(([, , , perks], i) => (perks.includes(perk) || (i > 0 && tiers.slice(0, i).some(([, , , earlier]) => earlier.includes(perk))) ? 'true' : 'false')).join(', ')}] },`).join('\n')}
];

export function Comparison() {
  return (
    <section className="section section-alt" id="compare">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Compare</span>
          <h2>Every plan, side by side</h2>
        </div>
        <div className="card table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Feature</th>
                {tiers.map((tier) => (
                  <th scope="col" key={tier}>
                    {tier}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.feature}>
                  <th scope="row">{row.feature}</th>
                  {row.included.map((yes, index) => (
                    <td key={tiers[index]} aria-label={yes ? 'Included' : 'Not included'}>
                      {yes ? '✓' : '—'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.billing-toggle {
  display: flex;
  justify-content: center;
  gap: 0.5rem;
  margin-bottom: 2rem;
}

.save {
  margin-left: 0.35rem;
  font-size: 0.75rem;
  font-weight: 700;
  color: var(--success, #16a34a);
}

.chip[aria-pressed='true'] .save {
  color: inherit;
}

.per {
  font-size: 1rem;
  font-weight: 500;
}

.billed {
  font-size: 0.85rem;
}

#compare .table th[scope='row'] {
  text-transform: none;
  letter-spacing: 0;
  font-size: 0.95rem;
  color: var(--foreground);
  font-weight: 500;
}
`;
  return {
    main: [
      { name: 'PricingPlans', path: 'src/components/PricingPlans.tsx', content: component },
      { name: 'Comparison', path: 'src/components/Comparison.tsx', content: comparison },
    ],
    support: { 'src/components/Pricing.css': css },
    coreSections: ['faq'],
    hero: 'compact',
    links: [
      { href: '#plans', label: 'Plans' },
      { href: '#compare', label: 'Compare' },
    ],
    coreTask: { title: 'Build the pricing table', description: 'Three plans with a monthly/annual switch (two months free), a comparison table and an FAQ.' },
  };
}
