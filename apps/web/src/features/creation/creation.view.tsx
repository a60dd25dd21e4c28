import { AlertCircle, Check, Circle, Hammer, LoaderCircle, RotateCw, Sparkles, Wand2, X } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { cn } from '../../ui/cn';
import { Progress } from '../../ui/progress';
import { useVm } from '../../use-vm';
import { SETUP_STAGES } from '../builder/sandbox-setup';
import { CreationVm, NEW_PROJECT_ID } from './creation.vm';

/** /creation/:projectId (empty layout): the landing idea becomes a project here. */
export const CreationView = observer(function CreationView() {
  const { projectId = NEW_PROJECT_ID } = useParams();
  const [search] = useSearchParams();
  const wizard = search.has('wizard');
  const vm = useVm(CreationVm);
  useEffect(() => {
    void vm.init(projectId, wizard);
    return () => vm.dispose();
  }, [vm, projectId, wizard]);
  const { state } = vm;

  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-16">
      <Card className="w-full max-w-lg p-8 text-center">
        {state.kind === 'loading' && (
          <>
            <LoaderCircle className="mx-auto size-8 animate-spin text-brand" aria-hidden />
            <h1 className="mt-6 text-2xl font-semibold tracking-tight">Preparing your project</h1>
          </>
        )}
        {state.kind === 'ready' && (
          <>
            <span className="mx-auto inline-flex size-12 items-center justify-center rounded-2xl bg-brand-soft text-brand">
              <Sparkles className="size-6" aria-hidden />
            </span>
            <h1 className="mt-6 text-2xl font-semibold tracking-tight">{state.name}</h1>
            {state.prompt && (
              <blockquote className="mt-4 rounded-xl border border-border bg-muted/50 p-4 text-left text-sm text-muted-foreground">
                {state.prompt}
              </blockquote>
            )}
            <SetupProgressList vm={vm} />
          </>
        )}
        {state.kind === 'no-idea' && (
          <>
            <h1 className="text-2xl font-semibold tracking-tight">Start with an idea</h1>
            <p className="mt-2 text-muted-foreground">Describe the app you want on the home page and we will set up a project for it.</p>
            <ButtonLink to="/" className="mt-8">
              Describe your app
            </ButtonLink>
          </>
        )}
        {(state.kind === 'limit' || state.kind === 'error') && (
          <>
            <AlertCircle className="mx-auto size-8 text-destructive" aria-hidden />
            <h1 className="mt-6 text-2xl font-semibold tracking-tight">{state.kind === 'limit' ? 'Project limit reached' : 'Something went wrong'}</h1>
            <p role="alert" className="mt-2 text-muted-foreground">
              {state.message}
            </p>
            <ButtonLink to={state.kind === 'limit' ? '/pricing' : '/'} className="mt-8">
              {state.kind === 'limit' ? 'View Plans' : 'Back to home'}
            </ButtonLink>
          </>
        )}
      </Card>
    </div>
  );
});

/** SPEC §4 sandbox initialisation, one line per stage, then the builder opens by itself. */
const SetupProgressList = observer(function SetupProgressList({ vm }: { vm: CreationVm }) {
  const { setup, stage, state } = vm;
  const failed = setup.kind === 'failed';
  const done = setup.kind === 'done';
  const finished = done ? SETUP_STAGES.length : stage - 1;
  return (
    <div className="mt-8 text-left">
      <Progress
        value={(finished / SETUP_STAGES.length) * 100}
        label="Setting up your project"
        tone={failed ? 'destructive' : 'default'}
        className="h-1.5"
      />
      <ol aria-label="Setup steps" className="mt-5 grid gap-3">
        {SETUP_STAGES.map(({ stage: number, label }) => {
          const state = done || number < stage ? 'done' : number > stage ? 'pending' : failed ? 'failed' : 'active';
          return (
            <li key={number} aria-current={state === 'active' ? 'step' : undefined} className="flex items-center gap-3 text-sm">
              <span
                className={cn(
                  'inline-flex size-6 shrink-0 items-center justify-center rounded-full',
                  state === 'done' && 'bg-success-soft text-success',
                  state === 'active' && 'bg-brand-soft text-brand',
                  state === 'failed' && 'bg-destructive-soft text-destructive',
                  state === 'pending' && 'text-muted-foreground',
                )}
              >
                {state === 'done' && <Check className="size-3.5" aria-hidden />}
                {state === 'active' && <LoaderCircle className="size-3.5 animate-spin" aria-hidden />}
                {state === 'failed' && <X className="size-3.5" aria-hidden />}
                {state === 'pending' && <Circle className="size-3.5" aria-hidden />}
              </span>
              <span className={cn(state === 'pending' ? 'text-muted-foreground' : 'text-foreground', state === 'active' && 'font-medium')}>
                {label}
                <span className="sr-only">{` (${state === 'done' ? 'done' : state === 'active' ? 'in progress' : state === 'failed' ? 'failed' : 'waiting'})`}</span>
              </span>
            </li>
          );
        })}
      </ol>
      {setup.kind === 'failed' ? (
        <div className="mt-6 rounded-xl border border-destructive/30 bg-destructive-soft p-4">
          <p role="alert" className="text-sm font-medium">
            Your sandbox could not start: {setup.message}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void vm.retrySetup()}>
              <RotateCw aria-hidden /> Try again
            </Button>
            <ButtonLink to="/" size="sm" variant="outline">
              Back to home
            </ButtonLink>
          </div>
        </div>
      ) : (
        <div className="mt-6 grid justify-items-center gap-3">
          <p className="text-center text-sm text-muted-foreground" aria-live="polite">
            {done ? 'Opening the builder…' : 'The builder opens as soon as your sandbox is ready.'}
          </p>
          {!done && state.kind === 'ready' && (
            <div className="flex flex-wrap justify-center gap-2">
              <ButtonLink to={`/builder/${state.projectId}`} variant="ghost" size="sm">
                <Hammer className="size-4" aria-hidden /> Open builder
              </ButtonLink>
              <ButtonLink to={`/wizard/${state.projectId}`} variant="ghost" size="sm">
                <Wand2 className="size-4" aria-hidden /> Set up step by step
              </ButtonLink>
            </div>
          )}
        </div>
      )}
    </div>
  );
});
