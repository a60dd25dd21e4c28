import {
  ArrowRight,
  ArrowUp,
  Code2,
  Database,
  Globe,
  History,
  MessageSquareText,
  MonitorSmartphone,
  Palette,
  Sparkles,
  Wand2,
} from 'lucide-react';
import { observer } from 'mobx-react-lite';
import type { FormEvent, KeyboardEvent } from 'react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/button';
import { useVm } from '../../use-vm';
import { HomeVm } from './home.vm';
import { ProjectsSection } from './projects.view';

const STEPS = [
  { icon: MessageSquareText, title: 'Describe it', text: 'Write what you want in plain words. Each message is one prompt.' },
  { icon: MonitorSmartphone, title: 'Watch it build', text: 'A live preview updates as the assistant writes the code.' },
  { icon: Globe, title: 'Publish it', text: 'Put it online in a click, on our domain or your own.' },
] as const;

const FEATURES = [
  { icon: MonitorSmartphone, title: 'Live preview', text: 'Mobile, tablet, laptop and desktop sizes side by side with your chat.' },
  { icon: Code2, title: 'Real code', text: 'Browse the file tree, read every file, run commands in a terminal.' },
  { icon: History, title: 'Version history', text: 'Every change is a commit. Go back to any version.' },
  { icon: Palette, title: 'Theme builder', text: 'Colours, fonts and radii, generated and applied for you.' },
  { icon: Database, title: 'Database', text: 'Connect a database to your project when it needs one.' },
  { icon: Globe, title: 'Custom domains', text: 'Publish and connect your own domain on Pro.' },
] as const;

export const HomeView = observer(function HomeView() {
  const vm = useVm(HomeVm);
  const promptId = useId();
  const hintId = useId();

  const submit = () => vm.submit();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <>
      <section className="mx-auto flex max-w-3xl flex-col items-center px-4 pt-16 pb-20 text-center sm:px-6 sm:pt-24 sm:pb-28">
        <Link
          to="/beta"
          className="group mb-6 inline-flex items-center gap-2 rounded-full border border-border bg-background/70 py-1 pr-3 pl-1 text-xs font-medium text-muted-foreground shadow-xs backdrop-blur transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <span className="inline-flex items-center gap-1 rounded-full bg-brand-soft px-2 py-0.5 text-brand">
            <Sparkles className="size-3" aria-hidden />
            Beta
          </span>
          Kiln is in open beta
          <ArrowRight className="size-3 transition-transform group-hover:translate-x-0.5" aria-hidden />
        </Link>
        <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-6xl">What do you want to build?</h1>
        <p className="mt-4 max-w-xl text-base text-pretty text-muted-foreground sm:text-lg">
          Describe your app in plain words. Kiln writes it, runs it and shows it to you live.
        </p>

        <form onSubmit={onSubmit} className="mt-10 w-full text-left">
          <div className="rounded-2xl border border-border bg-background/90 p-2 shadow-xl shadow-black/[0.04] backdrop-blur transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-4 focus-within:ring-ring/15 dark:bg-card/90 dark:shadow-black/30">
            <label htmlFor={promptId} className="sr-only">
              Describe the app you want to build
            </label>
            <textarea
              id={promptId}
              value={vm.prompt}
              onChange={(event) => vm.setPrompt(event.target.value)}
              onKeyDown={onKeyDown}
              rows={4}
              aria-describedby={hintId}
              placeholder="A booking page for my yoga studio with classes, a calendar and payments…"
              className="block max-h-72 min-h-28 w-full resize-none bg-transparent px-3 pt-2.5 text-base leading-relaxed text-foreground placeholder:text-muted-foreground/70 focus:outline-none"
            />
            <div className="flex items-center justify-between gap-3 px-2 pt-1 pb-1">
              <p id={hintId} className="hidden text-xs text-muted-foreground sm:block">
                <kbd className="rounded border border-border bg-muted px-1 font-sans">Enter</kbd> to build ·{' '}
                <kbd className="rounded border border-border bg-muted px-1 font-sans">Shift</kbd> +{' '}
                <kbd className="rounded border border-border bg-muted px-1 font-sans">Enter</kbd> for a new line
              </p>
              <Button type="submit" variant="brand" disabled={!vm.canSubmit} className="ml-auto rounded-xl">
                Build it
                <ArrowUp aria-hidden />
              </Button>
            </div>
          </div>
        </form>

        <Button type="button" variant="ghost" size="sm" className="mt-3" onClick={() => vm.startWizard()}>
          <Wand2 aria-hidden /> Set up step by step
        </Button>

        <div className="mt-6 flex w-full flex-col items-center gap-3">
          <p className="text-xs font-medium text-muted-foreground" id={`${promptId}-examples`}>
            Try an example
          </p>
          <ul aria-labelledby={`${promptId}-examples`} className="flex flex-wrap justify-center gap-2">
            {vm.examples.map((idea) => (
              <li key={idea.label}>
                <button
                  type="button"
                  onClick={() => vm.useExample(idea.prompt)}
                  className="rounded-full border border-border bg-background/70 px-3.5 py-1.5 text-sm text-muted-foreground shadow-xs backdrop-blur transition-colors hover:border-foreground/20 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring dark:bg-card/60"
                >
                  {idea.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <ProjectsSection />

      <section aria-labelledby="how-it-works" className="border-t border-border/70 bg-background/60">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2 id="how-it-works" className="text-center text-2xl font-semibold tracking-tight sm:text-3xl">
            From idea to app in three steps
          </h2>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="relative rounded-2xl border border-border bg-card p-6 shadow-xs">
                <div className="flex items-center gap-3">
                  <span className="inline-flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand">
                    <step.icon className="size-5" aria-hidden />
                  </span>
                  <span className="text-xs font-medium text-muted-foreground">Step {index + 1}</span>
                </div>
                <h3 className="mt-5 text-lg font-semibold tracking-tight">{step.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="features" className="border-t border-border/70">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="features" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              Everything a real project needs
            </h2>
            <p className="mt-3 text-muted-foreground">Not a mock-up: a working web project in its own sandbox.</p>
          </div>
          <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="flex gap-4">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl border border-border bg-background">
                  <feature.icon className="size-5 text-foreground" aria-hidden />
                </span>
                <div>
                  <h3 className="font-medium">{feature.title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{feature.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {vm.showStartFreeBanner && (
        <section className="px-4 pb-24 sm:px-6">
          <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 rounded-3xl bg-primary px-6 py-10 text-primary-foreground sm:px-12 md:flex-row md:items-center md:justify-between">
            <div>
              <h2 className="text-2xl font-semibold tracking-tight">Start free with 5 prompts a month</h2>
              <p className="mt-2 text-primary-foreground/70">Upgrade to Pro when your app needs more.</p>
            </div>
            <div className="flex flex-wrap gap-3">
              <ButtonLink to="/get-started" variant="brand" size="lg">
                Get started
              </ButtonLink>
              <ButtonLink
                to="/pricing"
                size="lg"
                className="border border-primary-foreground/20 bg-transparent text-primary-foreground hover:bg-primary-foreground/10"
              >
                See pricing
              </ButtonLink>
            </div>
          </div>
        </section>
      )}
    </>
  );
});
