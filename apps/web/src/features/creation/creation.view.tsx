import { AlertCircle, Hammer, LoaderCircle, Sparkles } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { useVm } from '../../use-vm';
import { CreationVm, NEW_PROJECT_ID } from './creation.vm';

/** /creation/:projectId (empty layout): the landing idea becomes a project here. */
export const CreationView = observer(function CreationView() {
  const { projectId = NEW_PROJECT_ID } = useParams();
  const vm = useVm(CreationVm);
  useEffect(() => {
    void vm.init(projectId);
  }, [vm, projectId]);
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
            <p className="mt-4 text-muted-foreground">Your project is ready. The builder that writes it for you comes next.</p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <ButtonLink to={`/builder/${state.projectId}`}>
                <Hammer className="size-4" aria-hidden /> Open builder
              </ButtonLink>
            </div>
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
