import { observer } from 'mobx-react-lite';
import { useEffect, useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { useVm } from '../../use-vm';
import { AuthLink, AuthScreen, FieldError, FormError, FormNotice } from './auth-screen';
import { CodeInput } from './code-input';
import { VerifyVm } from './verify.vm';

export const VerifyView = observer(function VerifyView() {
  const vm = useVm(VerifyVm);
  const id = useId();
  const [params] = useSearchParams();
  const email = params.get('email');
  const type = params.get('type');
  const code = params.get('code');
  useEffect(() => vm.init({ email, type, code }), [vm, email, type, code]);
  useEffect(() => {
    vm.start();
    return () => vm.dispose();
  }, [vm]);
  return (
    <AuthScreen
      title="Check your email"
      description={
        vm.askEmail ? (
          'Enter your email address and the 6-digit code we sent to it.'
        ) : (
          <>
            We sent a 6-digit code to <strong className="font-medium text-foreground">{vm.email}</strong>. Enter it below to continue.
          </>
        )
      }
      footer={
        <>
          Wrong address? <AuthLink to="/signup">Sign up again</AuthLink>
        </>
      }
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void vm.submit();
        }}
      >
        {vm.askEmail ? (
          <div className="grid gap-2">
            <Label htmlFor={`${id}-email`}>Email</Label>
            <Input
              id={`${id}-email`}
              type="email"
              autoComplete="email"
              value={vm.email}
              onChange={(e) => vm.setEmail(e.target.value)}
              aria-invalid={vm.emailError !== null || undefined}
            />
            <FieldError id={`${id}-email-error`} message={vm.emailError} />
          </div>
        ) : null}
        <CodeInput
          label="Verification code"
          code={vm.code}
          digits={vm.digits}
          onChange={vm.setCode}
          readOnly={vm.submitting || vm.verified}
          invalid={vm.error !== null}
          autoFocus={!vm.askEmail}
        />
        <FormError message={vm.error} />
        <FormNotice message={vm.notice} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting} disabled={vm.verified}>
          Verify
        </Button>
        <div className="flex items-center justify-center gap-1 text-sm text-muted-foreground">
          <span>Didn&apos;t get it?</span>
          <Button
            variant="link"
            size="sm"
            className="h-auto px-1 tabular-nums"
            disabled={!vm.canResend}
            loading={vm.resending}
            onClick={() => void vm.resend()}
          >
            {vm.resendLabel}
          </Button>
        </div>
      </form>
    </AuthScreen>
  );
});
