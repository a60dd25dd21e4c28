import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

const LAST_UPDATED = '1 March 2025';
const CONTACT = 'legal@kiln.dev';

interface Section {
  readonly heading: string;
  readonly body: ReactNode;
}

function LegalDocument({ title, intro, sections }: { title: string; intro: string; sections: readonly Section[] }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6 sm:py-20">
      <p className="text-sm font-medium text-brand">Legal</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-3 text-sm text-muted-foreground">Last updated {LAST_UPDATED}</p>
      <p className="mt-8 text-base leading-relaxed text-muted-foreground">{intro}</p>
      <div className="mt-10 grid gap-10">
        {sections.map((section, index) => (
          <section key={section.heading} aria-labelledby={`legal-${index}`}>
            <h2 id={`legal-${index}`} className="text-lg font-semibold tracking-tight">
              {index + 1}. {section.heading}
            </h2>
            <div className="mt-3 grid gap-3 text-[15px] leading-relaxed text-muted-foreground [&_a]:font-medium [&_a]:text-foreground [&_a]:underline [&_a]:underline-offset-4">
              {section.body}
            </div>
          </section>
        ))}
      </div>
      <p className="mt-14 border-t border-border pt-6 text-sm text-muted-foreground">
        Questions? Write to <a className="font-medium text-foreground underline underline-offset-4" href={`mailto:${CONTACT}`}>{CONTACT}</a> or use our{' '}
        <Link className="font-medium text-foreground underline underline-offset-4" to="/contact-us">
          contact page
        </Link>
        .
      </p>
    </article>
  );
}

export function TermsOfServicePage() {
  return (
    <LegalDocument
      title="Terms of Service"
      intro="These terms govern your use of Kiln, a service that generates, runs and hosts web projects from the prompts you write. By creating an account you agree to them."
      sections={[
        { heading: 'Your account', body: <p>You must give accurate details, keep your password safe and tell us about any unauthorised use. You are responsible for what happens under your account.</p> },
        {
          heading: 'Prompts and credits',
          body: (
            <p>
              Each message or task counts as one prompt and uses one credit. Plan allowances renew each billing cycle; referral and add-on credits do not expire while your account is open. Credits have no cash value.
            </p>
          ),
        },
        { heading: 'Your content', body: <p>You own the prompts you write and the code generated for your projects. You grant us the rights needed to run, store and host them for you, and nothing more.</p> },
        {
          heading: 'Acceptable use',
          body: <p>Do not use Kiln to build or host anything unlawful, harmful, deceptive or infringing, to attack other systems, or to get around plan limits. We may suspend projects that do.</p>,
        },
        {
          heading: 'Subscriptions',
          body: (
            <p>
              Paid plans renew automatically until cancelled. See our <Link to="/legal/cancellation-refund-policy">Cancellation &amp; Refund Policy</Link> for how cancellation and refunds work.
            </p>
          ),
        },
        { heading: 'Liability', body: <p>Kiln is provided as is. To the extent the law allows, our liability is limited to the amount you paid us in the twelve months before a claim.</p> },
      ]}
    />
  );
}

export function PrivacyPolicyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro="This policy explains what personal data Kiln collects, why, and the choices you have. We collect as little as we can to run the service."
      sections={[
        {
          heading: 'What we collect',
          body: <p>Your account details (name, email, optional organisation, role and date of birth), your projects and prompts, billing records from our payment provider, and basic usage data such as pages viewed.</p>,
        },
        { heading: 'How we use it', body: <p>To run your projects, count your credits, bill you, keep the service secure, and — only if you agree — send you product news.</p> },
        {
          heading: 'Who we share it with',
          body: <p>Service providers that host projects, process payments and send email, each bound to use the data only for us. We do not sell personal data.</p>,
        },
        {
          heading: 'Where your location is used',
          body: <p>Before checkout we estimate your country to show prices in the right currency. We do not store that estimate.</p>,
        },
        { heading: 'Your rights', body: <p>You can see, correct, export or delete your data. Deleting your account removes your profile and projects from active systems.</p> },
      ]}
    />
  );
}

export function CookiesPolicyPage() {
  return (
    <LegalDocument
      title="Cookies Policy"
      intro="Kiln uses a small number of cookies and similar local storage to keep you signed in and remember your preferences."
      sections={[
        { heading: 'Essential cookies', body: <p>Your session is kept in cookies so you stay signed in. Without them Kiln cannot work.</p> },
        {
          heading: 'Preferences',
          body: <p>Your color mode, editor layout and the app idea you typed before signing up are kept in your browser&apos;s local storage, on your device only.</p>,
        },
        { heading: 'Analytics', body: <p>We count page views to understand how Kiln is used. These counts are not used for advertising.</p> },
        { heading: 'Your choices', body: <p>You can clear cookies and local storage in your browser at any time; you will be signed out and your preferences reset.</p> },
      ]}
    />
  );
}

export function CancellationRefundPolicyPage() {
  return (
    <LegalDocument
      title="Cancellation & Refund Policy"
      intro="You can cancel a paid plan at any time. This page explains what happens when you do."
      sections={[
        {
          heading: 'Cancelling',
          body: <p>Cancel from Settings → Plan &amp; usage → Manage Subscription. Your plan stays active until the end of the period you have paid for, then moves to Free.</p>,
        },
        { heading: 'Refunds', body: <p>Monthly payments are not refunded for partial months. Annual plans cancelled within 14 days of purchase are refunded in full if fewer than 25 prompts were used.</p> },
        { heading: 'Add-on credits', body: <p>Add-on credit packs are delivered instantly and are not refundable once any of their credits has been used.</p> },
        { heading: 'Billing errors', body: <p>If you were charged in error, contact us within 30 days and we will put it right.</p> },
      ]}
    />
  );
}
