import { ArrowRight, Clock, CreditCard, LifeBuoy, Mail, Rocket, Sparkles, Wand2 } from 'lucide-react';
import { useForcedColorMode } from '../color-mode/color-mode.view';
import { LayoutFrame, MAIN_CONTENT_ID } from '../../layouts/layout-frame';
import { Badge } from '../../ui/badge';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { Logo } from '../../ui/logo';

/** /beta (guest layout). */
export function BetaPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <Badge tone="brand" className="px-3 py-1">
        <Sparkles aria-hidden />
        Open beta
      </Badge>
      <h1 className="mt-6 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Build with Kiln before everyone else</h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-muted-foreground">
        Kiln is in open beta. Create an account, describe your first app, and help shape what we build next.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/get-started" variant="brand" size="lg">
          Join the beta
          <ArrowRight aria-hidden />
        </ButtonLink>
        <ButtonLink to="/pricing" variant="outline" size="lg">
          See pricing
        </ButtonLink>
      </div>
      <ul className="mt-16 grid gap-4 text-left sm:grid-cols-3">
        {[
          { icon: Wand2, title: 'Every feature', text: 'Preview, code, history and publishing are all open.' },
          { icon: Rocket, title: 'Fast updates', text: 'New releases land every week.' },
          { icon: LifeBuoy, title: 'A direct line', text: 'Your feedback goes straight to the team.' },
        ].map((item) => (
          <li key={item.title}>
            <Card className="h-full p-5">
              <item.icon className="size-5 text-brand" aria-hidden />
              <h2 className="mt-3 font-medium">{item.title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{item.text}</p>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}

const CHANNELS = [
  { icon: LifeBuoy, title: 'Product support', text: 'Questions about building, previews or publishing.', email: 'support@kiln.dev' },
  { icon: CreditCard, title: 'Billing', text: 'Plans, invoices, refunds and add-on credits.', email: 'billing@kiln.dev' },
  { icon: Mail, title: 'Everything else', text: 'Partnerships, press and anything we missed.', email: 'hello@kiln.dev' },
] as const;

/** /contact-us. */
export function ContactUsPage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6 sm:py-24">
      <header className="max-w-2xl">
        <p className="text-sm font-medium text-brand">Contact</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight">Talk to a human</h1>
        <p className="mt-4 text-lg text-muted-foreground">Pick the inbox that fits and we will get back to you.</p>
      </header>
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {CHANNELS.map((channel) => (
          <li key={channel.title}>
            <Card className="flex h-full flex-col p-6">
              <span className="inline-flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand">
                <channel.icon className="size-5" aria-hidden />
              </span>
              <h2 className="mt-5 font-semibold tracking-tight">{channel.title}</h2>
              <p className="mt-1 flex-1 text-sm text-muted-foreground">{channel.text}</p>
              <a
                href={`mailto:${channel.email}`}
                className="mt-5 inline-flex items-center gap-1.5 rounded-sm text-sm font-medium underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              >
                {channel.email}
                <ArrowRight className="size-3.5" aria-hidden />
              </a>
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-10 flex items-center gap-2 text-sm text-muted-foreground">
        <Clock className="size-4" aria-hidden />
        We answer within one working day. Pro plans get priority email support.
      </p>
    </div>
  );
}

const SLIDES = [
  { kicker: 'Kiln', title: 'Software, from a sentence', text: 'An AI app builder: describe an app in plain words and get a working web project, live.' },
  { kicker: 'Problem', title: 'Most ideas never become software', text: 'Building even a small web app takes skills, time and money that most people with ideas do not have.' },
  {
    kicker: 'Product',
    title: 'Prompt, preview, publish',
    text: 'Each prompt edits a real project in its own cloud sandbox: live preview, code, version history, database, custom domains.',
  },
  { kicker: 'Business model', title: 'Free to start, Pro to grow', text: 'Free: 5 prompts a month. Pro: 25 prompts a month and unlimited projects, $25 monthly or $240 yearly. Add-on credit packs on top.' },
  { kicker: 'Growth', title: 'Every user brings the next', text: 'Referrals reward both sides with credits; published apps carry a “Built with Kiln” badge.' },
] as const;

/** /pitch-deck-gbm-jh-sss: no layout, always dark. */
export function PitchDeckPage() {
  useForcedColorMode('dark');
  return (
    <LayoutFrame>
      <main id={MAIN_CONTENT_ID} className="h-dvh snap-y snap-mandatory overflow-y-auto bg-background">
        {SLIDES.map((slide, index) => (
          <section
            key={slide.kicker}
            aria-label={`Slide ${index + 1} of ${SLIDES.length}: ${slide.kicker}`}
            className="relative flex h-dvh snap-start flex-col justify-center overflow-hidden px-6 sm:px-16"
          >
            <div aria-hidden className="absolute -top-1/3 right-[-20%] h-[70vh] w-[70vh] rounded-full bg-[radial-gradient(closest-side,oklch(0.55_0.18_40/0.35),transparent)] blur-2xl" />
            <div className="relative mx-auto w-full max-w-5xl">
              {index === 0 ? <Logo className="mb-12" /> : null}
              <p className="text-sm font-medium tracking-wide text-brand uppercase">{slide.kicker}</p>
              <h2 className="mt-4 max-w-4xl text-4xl font-semibold tracking-tight text-balance sm:text-7xl">{slide.title}</h2>
              <p className="mt-6 max-w-2xl text-lg text-muted-foreground sm:text-2xl sm:leading-relaxed">{slide.text}</p>
            </div>
            <p className="absolute right-6 bottom-6 text-sm text-muted-foreground tabular-nums sm:right-16">
              {index + 1} / {SLIDES.length}
            </p>
          </section>
        ))}
      </main>
    </LayoutFrame>
  );
}
