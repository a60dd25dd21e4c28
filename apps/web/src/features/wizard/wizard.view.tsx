import { ArrowLeft, ArrowRight, Database, LoaderCircle, Sparkles, Wand2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type ReactNode, useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { Alert } from '../../ui/alert';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { cn } from '../../ui/cn';
import { Input, Textarea } from '../../ui/input';
import { Field } from '../../ui/label';
import { Progress } from '../../ui/progress';
import { useVm } from '../../use-vm';
import { KEEP_TEMPLATE_LOOK, STEP_TITLES, WIZARD_STEPS, WizardVm } from './wizard.vm';

/** /wizard/:projectId (SPEC §2, layout not shown: the empty one): a new project set up step by step. */
export const WizardView = observer(function WizardView() {
  const { projectId = '' } = useParams();
  const vm = useVm(WizardVm);
  useEffect(() => {
    void vm.init(projectId);
  }, [vm, projectId]);
  const { load } = vm;

  return (
    <div className="flex min-h-dvh items-start justify-center px-4 py-12 sm:items-center">
      <Card className="w-full max-w-2xl p-6 sm:p-8">
        <div className="flex items-center gap-3">
          <span className="inline-flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand">
            <Wand2 className="size-5" aria-hidden />
          </span>
          <p className="text-sm text-muted-foreground">
            Step {vm.stepNumber} of {WIZARD_STEPS.length}
          </p>
        </div>
        <Progress value={(vm.stepNumber / WIZARD_STEPS.length) * 100} label="Wizard progress" className="mt-4 h-1.5" />
        {load.kind === 'loading' && <LoaderCircle className="mx-auto mt-10 size-8 animate-spin text-brand" aria-label="Loading" />}
        {load.kind === 'error' && (
          <Alert tone="destructive" title="This project could not be opened" className="mt-6" action={<ButtonLink to="/">Back to home</ButtonLink>}>
            {load.message}
          </Alert>
        )}
        {load.kind === 'ready' && (
          <form
            className="mt-6"
            onSubmit={(event) => {
              event.preventDefault();
              void vm.next();
            }}
          >
            <h1 className="text-2xl font-semibold tracking-tight">{STEP_TITLES[vm.step]}</h1>
            <div className="mt-6">
              <StepBody vm={vm} />
            </div>
            {vm.error !== null && (
              <p role="alert" className="mt-4 rounded-lg bg-destructive-soft p-3 text-sm text-destructive">
                {vm.error}
              </p>
            )}
            <div className="mt-8 flex items-center justify-between gap-3">
              <Button type="button" variant="ghost" onClick={vm.back} disabled={!vm.canGoBack}>
                <ArrowLeft aria-hidden /> Back
              </Button>
              <Button type="submit" variant="brand" disabled={!vm.canContinue}>
                {vm.busy && <LoaderCircle className="animate-spin" aria-hidden />}
                {vm.step === 'prompt' ? 'Start building' : 'Next'}
                {!vm.busy && <ArrowRight aria-hidden />}
              </Button>
            </div>
          </form>
        )}
      </Card>
    </div>
  );
});

const StepBody = observer(function StepBody({ vm }: { vm: WizardVm }) {
  switch (vm.step) {
    case 'name':
      return (
        <Field label="Project name" htmlFor="wizard-name">
          <Input id="wizard-name" value={vm.name} maxLength={100} autoFocus onChange={(event) => vm.setName(event.target.value)} />
        </Field>
      );
    case 'template':
      return (
        <Choices label="Template">
          {vm.templates.map((template) => (
            <Choice key={template.id} name="template" checked={vm.template === template.id} onChange={() => vm.chooseTemplate(template.id)} title={template.name}>
              {template.description}
            </Choice>
          ))}
        </Choices>
      );
    case 'theme':
      return (
        <Choices label="Theme">
          <Choice name="theme" checked={vm.theme === KEEP_TEMPLATE_LOOK} onChange={() => vm.chooseTheme(KEEP_TEMPLATE_LOOK)} title="Template's look">
            Keep the colours the template comes with.
          </Choice>
          {vm.themes.map((theme) => (
            <Choice key={theme.name} name="theme" checked={vm.theme === theme.name} onChange={() => vm.chooseTheme(theme.name)} title={theme.name}>
              <span className="flex gap-1.5" aria-hidden>
                {['primary', 'secondary', 'accent', 'background'].map((variable) => (
                  <span key={variable} className="size-5 rounded-full border border-border" style={{ background: theme.light[variable] }} />
                ))}
              </span>
            </Choice>
          ))}
        </Choices>
      );
    case 'database':
      return (
        <Choices label="Database">
          <Choice name="database" checked={!vm.wantsDatabase} onChange={() => vm.chooseDatabase(false)} title="No database">
            The app keeps its data in the browser. You can connect one later from the builder.
          </Choice>
          <Choice name="database" checked={vm.wantsDatabase} onChange={() => vm.chooseDatabase(true)} title="Yes, add a database">
            <span className="inline-flex items-center gap-1.5">
              <Database className="size-4" aria-hidden /> A PostgreSQL database with sign-in, for data that is saved and shared.
            </span>
          </Choice>
        </Choices>
      );
    case 'prompt':
      return (
        <div className="grid gap-3">
          <Field label="First prompt" htmlFor="wizard-prompt" hint="The builder opens and starts on this right away.">
            <Textarea id="wizard-prompt" rows={5} value={vm.prompt} onChange={(event) => vm.setPrompt(event.target.value)} placeholder="A landing page for my bakery called Crumbs, with opening hours" />
          </Field>
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => void vm.enhancePrompt()} disabled={vm.prompt.trim() === '' || vm.enhancing}>
            {vm.enhancing ? <LoaderCircle className="animate-spin" aria-hidden /> : <Sparkles aria-hidden />} Enhance prompt
          </Button>
        </div>
      );
  }
});

function Choices({ label, children }: { label: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="sr-only">{label}</legend>
      <div className="grid gap-3 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function Choice({ name, checked, onChange, title, children }: { name: string; checked: boolean; onChange: () => void; title: string; children: ReactNode }) {
  return (
    <label
      className={cn(
        'flex cursor-pointer gap-3 rounded-xl border border-border p-4 transition-colors hover:border-foreground/30 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
        checked && 'border-brand bg-brand-soft/40',
      )}
    >
      <input type="radio" name={name} checked={checked} onChange={onChange} className="mt-1 accent-[var(--brand)]" aria-label={title} />
      <span className="grid gap-1">
        <span className="font-medium">{title}</span>
        <span className="text-sm text-muted-foreground">{children}</span>
      </span>
    </label>
  );
}
