import type { ReactNode } from 'react';
import { Wand2 } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';

function Placeholder({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children?: ReactNode }) {
  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md p-8 text-center">
        <span className="mx-auto inline-flex size-12 items-center justify-center rounded-2xl bg-brand-soft text-brand">{icon}</span>
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-2 text-muted-foreground">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>
      </Card>
    </div>
  );
}

/** /wizard/:projectId. */
export function WizardPage() {
  const { projectId = '' } = useParams();
  return (
    <Placeholder icon={<Wand2 className="size-6" aria-hidden />} title="Project setup" text={`The setup wizard for project ${projectId} comes with the builder.`}>
      <ButtonLink to={`/builder/${projectId}`}>Open builder</ButtonLink>
    </Placeholder>
  );
}
