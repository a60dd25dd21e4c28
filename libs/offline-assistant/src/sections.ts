// Page sections of generated apps (features, FAQ, pricing, …): one component file each, rendered
// inside <main> by App.tsx and linked from the header by their element id.
import { kebabCase, str } from './code.js';
import type { Topic } from './copy.js';
import { SECTION_COMPONENTS, SECTION_LABELS, type SectionId } from './intent.js';

export interface GeneratedComponent {
  /** The exported component name, e.g. 'Faq'. */
  readonly name: string;
  /** Project-relative path, e.g. 'src/components/Faq.tsx'. */
  readonly path: string;
  readonly content: string;
}

export interface SectionContext {
  readonly name: string;
  readonly subject: string | null;
  readonly topic: Topic;
}

const list = <T,>(items: readonly T[], render: (item: T) => string) => items.map((item) => `  ${render(item)},`).join('\n');

function features(ctx: SectionContext): string {
  const { topic } = ctx;
  return `const features = [
${list(topic.features, (f) => `{ icon: ${str(f.icon)}, title: ${str(f.title)}, text: ${str(f.text)} }`)}
];

export function Features() {
  return (
    <section className="section" id="features">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Why ${escapeJsx(ctx.name)}</span>
          <h2>Everything you need, nothing you don’t</h2>
          <p className="lead">${escapeJsx(topic.lead)}</p>
        </div>
        <div className="grid">
          {features.map((feature) => (
            <article className="card" key={feature.title}>
              <div className="icon" aria-hidden="true">
                {feature.icon}
              </div>
              <h3>{feature.title}</h3>
              <p className="muted">{feature.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function about(ctx: SectionContext): string {
  return `const values = [${ctx.topic.features
    .slice(0, 3)
    .map((f) => str(f.title))
    .join(', ')}];

export function About() {
  return (
    <section className="section" id="about">
      <div className="wrap grid-2">
        <div>
          <span className="eyebrow">About us</span>
          <h2>Our story</h2>
          <p className="lead">${escapeJsx(ctx.topic.about)}</p>
        </div>
        <div className="card">
          <h3>What we care about</h3>
          <ul className="checklist">
            {values.map((value) => (
              <li key={value}>{value}</li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
`;
}

function steps(ctx: SectionContext): string {
  return `const steps = [
${list(ctx.topic.steps, ([title, text]) => `{ title: ${str(title)}, text: ${str(text)} }`)}
];

export function Steps() {
  return (
    <section className="section" id="steps">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">How it works</span>
          <h2>Three simple steps</h2>
        </div>
        <ol className="grid" style={{ listStyle: 'none', padding: 0 }}>
          {steps.map((step, index) => (
            <li className="card" key={step.title}>
              <span className="badge">Step {index + 1}</span>
              <h3 style={{ marginTop: '0.75rem' }}>{step.title}</h3>
              <p className="muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
`;
}

function stats(ctx: SectionContext): string {
  return `const stats = [
${list(ctx.topic.stats, ([value, label]) => `{ value: ${str(value)}, label: ${str(label)} }`)}
];

export function Stats() {
  return (
    <section className="section section-alt" id="stats" aria-label="In numbers">
      <div className="wrap grid">
        {stats.map((stat) => (
          <div className="card" key={stat.label}>
            <div className="stat-value">{stat.value}</div>
            <p className="muted">{stat.label}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
`;
}

function gallery(ctx: SectionContext): string {
  return `const tiles = [${ctx.topic.gallery.map((g) => str(g)).join(', ')}];

export function Gallery() {
  return (
    <section className="section" id="gallery">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Gallery</span>
          <h2>A look around</h2>
        </div>
        <div className="grid">
          {tiles.map((caption, index) => (
            <figure
              className="gallery-tile"
              key={caption}
              style={{
                margin: 0,
                background: 'linear-gradient(135deg, hsl(' + (index * 47 + 200) + ' 70% 55%), hsl(' + (index * 47 + 250) + ' 65% 40%))',
              }}
            >
              <figcaption>{caption}</figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function testimonials(ctx: SectionContext): string {
  return `const testimonials = [
${list(ctx.topic.testimonials, ([quote, name, role]) => `{ quote: ${str(quote)}, name: ${str(name)}, role: ${str(role)} }`)}
];

export function Testimonials() {
  return (
    <section className="section section-alt" id="testimonials">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Testimonials</span>
          <h2>People love ${escapeJsx(ctx.name)}</h2>
        </div>
        <div className="grid">
          {testimonials.map((t) => (
            <figure className="card" key={t.name} style={{ margin: 0 }}>
              <blockquote className="quote" style={{ margin: 0 }}>
                “{t.quote}”
              </blockquote>
              <figcaption className="person">
                <span className="avatar" aria-hidden="true">
                  {t.name.charAt(0)}
                </span>
                <span>
                  <strong>{t.name}</strong>
                  <br />
                  <span className="muted">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function team(ctx: SectionContext): string {
  return `const people = [
${list(ctx.topic.team, ([name, role]) => `{ name: ${str(name)}, role: ${str(role)} }`)}
];

export function Team() {
  return (
    <section className="section" id="team">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Team</span>
          <h2>The people behind ${escapeJsx(ctx.name)}</h2>
        </div>
        <div className="grid">
          {people.map((person) => (
            <article className="card" key={person.name}>
              <span className="avatar" aria-hidden="true">
                {person.name
                  .split(' ')
                  .map((part) => part.charAt(0))
                  .join('')}
              </span>
              <h3 style={{ marginTop: '1rem' }}>{person.name}</h3>
              <p className="muted">{person.role}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function pricing(ctx: SectionContext): string {
  return `const tiers = [
${list(ctx.topic.tiers, ([name, monthly, blurb, perks]) => `{ name: ${str(name)}, monthly: ${monthly}, blurb: ${str(blurb)}, perks: [${perks.map((p) => str(p)).join(', ')}] }`)}
];

function formatPrice(amount: number): string {
  return amount === 0 ? 'Free' : '$' + amount.toLocaleString('en-US');
}

export function Pricing() {
  return (
    <section className="section" id="pricing">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Pricing</span>
          <h2>Simple, honest prices</h2>
          <p className="lead">No hidden fees. Change or cancel whenever you like.</p>
        </div>
        <div className="grid">
          {tiers.map((tier, index) => (
            <article className={index === 1 ? 'card tier-featured' : 'card'} key={tier.name}>
              {index === 1 && <span className="badge">Most popular</span>}
              <h3 style={{ marginTop: '0.5rem' }}>{tier.name}</h3>
              <p className="muted">{tier.blurb}</p>
              <div className="price">
                {formatPrice(tier.monthly)}
                {tier.monthly > 0 && <span className="muted" style={{ fontSize: '1rem', fontWeight: 500 }}> / month</span>}
              </div>
              <ul className="checklist">
                {tier.perks.map((perk) => (
                  <li key={perk}>{perk}</li>
                ))}
              </ul>
              <a className={index === 1 ? 'btn btn-primary' : 'btn btn-ghost'} href="#contact" style={{ width: '100%' }}>
                Choose {tier.name}
              </a>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function faq(ctx: SectionContext): string {
  return `const questions = [
${list(ctx.topic.faqs, ([q, a]) => `{ question: ${str(q)}, answer: ${str(a)} }`)}
];

export function Faq() {
  return (
    <section className="section" id="faq">
      <div className="wrap grid-2">
        <div className="section-header">
          <span className="eyebrow">FAQ</span>
          <h2>Questions, answered</h2>
          <p className="lead">Can’t find what you’re looking for? Get in touch and we’ll help.</p>
        </div>
        <div className="faq">
          {questions.map((item) => (
            <details key={item.question}>
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
}

function newsletter(ctx: SectionContext): string {
  return `import { useState, type FormEvent } from 'react';

export function Newsletter() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [joined, setJoined] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(email)) {
      setError('Please enter a valid email address.');
      return;
    }
    setError('');
    setJoined(true);
  }

  return (
    <section className="section section-alt" id="newsletter">
      <div className="wrap grid-2">
        <div>
          <span className="eyebrow">Newsletter</span>
          <h2>News from ${escapeJsx(ctx.name)}, once a month</h2>
          <p className="muted">No spam, just the good stuff. Unsubscribe with one click.</p>
        </div>
        {joined ? (
          <p className="notice" role="status">
            Thanks! Please check {email} to confirm your subscription.
          </p>
        ) : (
          <form className="form" onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor="newsletter-email">Email address</label>
              <div className="inline-form">
                <input
                  id="newsletter-email"
                  className="input"
                  type="email"
                  placeholder="you@example.com"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  aria-invalid={error !== ''}
                  aria-describedby="newsletter-error"
                />
                <button className="btn btn-primary" type="submit">
                  Subscribe
                </button>
              </div>
              <span id="newsletter-error" className="field-error">
                {error}
              </span>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
`;
}

function contact(ctx: SectionContext): string {
  const domain = kebabCase(ctx.name).replace(/-/g, '') || 'example';
  return `import { useState, type FormEvent } from 'react';

type Errors = Partial<Record<'name' | 'email' | 'message', string>>;

export function Contact() {
  const [form, setForm] = useState({ name: '', email: '', message: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState(false);

  function update(field: keyof typeof form, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {};
    if (form.name.trim() === '') next.name = 'Please tell us your name.';
    if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(form.email)) next.email = 'Please enter a valid email address.';
    if (form.message.trim().length < 10) next.message = 'Please write at least 10 characters.';
    setErrors(next);
    if (Object.keys(next).length === 0) setSent(true);
  }

  return (
    <section className="section" id="contact">
      <div className="wrap grid-2">
        <div>
          <span className="eyebrow">Contact</span>
          <h2>Get in touch</h2>
          <p className="lead">Questions, ideas or just hello — we answer every message within a day.</p>
          <ul className="checklist">
            <li>hello@${domain}.com</li>
            <li>+1 (555) 014-2026</li>
            <li>Monday to Friday, 9 am – 6 pm</li>
          </ul>
        </div>
        <div className="card">
          {sent ? (
            <div className="notice" role="status">
              <strong>Thanks, {form.name}!</strong>
              <p style={{ margin: 0 }}>We got your message and will reply to {form.email} soon.</p>
            </div>
          ) : (
            <form className="form" onSubmit={submit} noValidate>
              <div className="field">
                <label htmlFor="contact-name">Name</label>
                <input id="contact-name" className="input" value={form.name} onChange={(e) => update('name', e.target.value)} aria-invalid={Boolean(errors.name)} />
                {errors.name && <span className="field-error">{errors.name}</span>}
              </div>
              <div className="field">
                <label htmlFor="contact-email">Email</label>
                <input id="contact-email" className="input" type="email" value={form.email} onChange={(e) => update('email', e.target.value)} aria-invalid={Boolean(errors.email)} />
                {errors.email && <span className="field-error">{errors.email}</span>}
              </div>
              <div className="field">
                <label htmlFor="contact-message">Message</label>
                <textarea id="contact-message" className="input" rows={4} value={form.message} onChange={(e) => update('message', e.target.value)} aria-invalid={Boolean(errors.message)} />
                {errors.message && <span className="field-error">{errors.message}</span>}
              </div>
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
}

function cta(ctx: SectionContext): string {
  return `export function CallToAction() {
  return (
    <section className="section" id="cta">
      <div className="wrap">
        <div className="cta-band">
          <h2>Ready when you are</h2>
          <p>${escapeJsx(ctx.topic.tagline)}. Join us today — it only takes a minute.</p>
          <a className="btn" href="#top">
            ${escapeJsx(ctx.topic.cta)}
          </a>
        </div>
      </div>
    </section>
  );
}
`;
}

function escapeJsx(text: string): string {
  return text.replace(/[{}<>]/g, (c) => `{'${c}'}`);
}

const RENDERERS: Readonly<Record<SectionId, (ctx: SectionContext) => string>> = {
  features,
  about,
  steps,
  stats,
  gallery,
  testimonials,
  team,
  pricing,
  faq,
  newsletter,
  contact,
  cta,
};

export function sectionComponent(id: SectionId, ctx: SectionContext): GeneratedComponent {
  const name = SECTION_COMPONENTS[id];
  return { name, path: `src/components/${name}.tsx`, content: RENDERERS[id](ctx) };
}

/** The header link of a section; the call-to-action band has none. */
export function sectionLink(id: SectionId): { href: string; label: string } | null {
  return id === 'cta' ? null : { href: `#${id}`, label: SECTION_LABELS[id] };
}
