import { ShieldCheck, Smartphone, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect, useId } from 'react';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/card';
import { useVm } from '../../use-vm';
import { CodeInput } from '../auth/code-input';
import { TwoFactorVm } from './two-factor.vm';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });

/** Settings › Profile: two-factor authentication with an authenticator app (TOTP). */
export const TwoFactorSection = observer(function TwoFactorSection() {
  const vm = useVm(TwoFactorVm);
  const titleId = useId();
  useEffect(() => {
    void vm.load();
  }, [vm]);
  return (
    <Card className="mt-6" role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle id={titleId}>Two-factor authentication</CardTitle>
            {vm.enabled ? <Badge tone="success">On</Badge> : null}
          </div>
          <CardDescription>
            {vm.enabled
              ? 'Logging in asks for your password and a code from your authenticator app.'
              : 'Add a second step to logging in: a 6-digit code from an authenticator app on your phone.'}
          </CardDescription>
        </div>
      </CardHeader>
      {vm.status === 'error' ? (
        <CardContent>
          <p role="alert" className="text-sm text-destructive">
            Your two-factor settings could not be loaded.{' '}
            <Button variant="link" size="sm" className="h-auto px-0" onClick={() => void vm.load()}>
              Try again
            </Button>
          </p>
        </CardContent>
      ) : null}
      {vm.factors.length > 0 ? (
        <CardContent>
          <ul className="grid gap-3" aria-label="Authenticator apps">
            {vm.factors.map((factor) => (
              <li key={factor.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border px-4 py-3">
                <span className="flex items-center gap-3">
                  <Smartphone className="size-5 text-muted-foreground" aria-hidden />
                  <span className="grid">
                    <span className="font-medium">{factor.friendlyName || 'Authenticator app'}</span>
                    <span className="text-sm text-muted-foreground">Added {dateFormat.format(new Date(factor.createdAt))}</span>
                  </span>
                </span>
                <Button variant="outline" size="sm" loading={vm.removingId === factor.id} onClick={() => void vm.remove(factor.id)}>
                  <Trash2 aria-hidden />
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
      {vm.enrolment ? <Enrolment vm={vm} /> : null}
      {vm.error !== null && vm.enrolment === null ? (
        <CardContent>
          <p role="alert" className="text-sm text-destructive">
            {vm.error}
          </p>
        </CardContent>
      ) : null}
      {vm.status === 'ready' && vm.enrolment === null && !vm.enabled ? (
        <CardFooter className="justify-end">
          <Button loading={vm.starting} onClick={() => void vm.start()}>
            <ShieldCheck aria-hidden />
            Set up authenticator app
          </Button>
        </CardFooter>
      ) : null}
    </Card>
  );
});

/** Scan (or type the key), then confirm with the first code the app shows. */
const Enrolment = observer(function Enrolment({ vm }: { vm: TwoFactorVm }) {
  const id = useId();
  const enrolment = vm.enrolment;
  if (!enrolment) return null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void vm.confirm();
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <CardContent className="grid gap-6 sm:grid-cols-[auto_1fr] sm:items-start">
        <img src={enrolment.qrCode} alt="QR code to scan with your authenticator app" className="size-44 rounded-lg border border-border bg-white p-2" />
        <div className="grid gap-4">
          <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
            <li>Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy…).</li>
            <li>Enter the 6-digit code it shows.</li>
          </ol>
          <div className="grid gap-1">
            <span id={`${id}-key-label`} className="text-sm font-medium">
              Can&apos;t scan? Enter this key instead
            </span>
            <code aria-labelledby={`${id}-key-label`} data-testid="totp-secret" className="break-all rounded-md bg-muted px-3 py-2 font-mono text-sm select-all">
              {enrolment.secret}
            </code>
          </div>
          <CodeInput label="Code from your app" code={vm.code} digits={vm.codeDigits} onChange={vm.setCode} readOnly={vm.confirming} invalid={vm.error !== null} />
          {vm.error === null ? null : (
            <p role="alert" className="text-sm text-destructive">
              {vm.error}
            </p>
          )}
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button variant="ghost" disabled={vm.confirming} onClick={() => void vm.cancel()}>
          Cancel
        </Button>
        <Button type="submit" loading={vm.confirming}>
          Turn on
        </Button>
      </CardFooter>
    </form>
  );
});
