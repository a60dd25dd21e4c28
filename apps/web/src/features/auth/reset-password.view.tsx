import { observer } from 'mobx-react-lite';
import { useEffect, useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/button';
import { useVm } from '../../use-vm';
import { AuthForm, AuthLink, AuthScreen, FieldError, FormError, FormNotice, TextField } from './auth-screen';
import { CodeInput } from './code-input';
import { PasswordRules } from './password-rules';
import { ResetPasswordVm } from './reset-password.vm';

export const ResetPasswordView = observer(function ResetPasswordView() {
  const vm = useVm(ResetPasswordVm);
  const id = useId();
  const [params] = useSearchParams();
  const email = params.get('email');
  useEffect(() => vm.init(email), [vm, email]);
  useEffect(() => {
    vm.start();
    return () => vm.dispose();
  }, [vm]);

  if (vm.step === 'request') {
    return (
      <AuthScreen
        bare
        title="Reset your password"
        description="Enter the email you signed up with and we'll send you a 6-digit code."
        footer={
          <>
            Remembered it? <AuthLink to="/login">Log in</AuthLink>
          </>
        }
      >
        <AuthForm onSubmit={() => void vm.requestCode()}>
          <TextField id={`${id}-email`} label="Email" type="email" autoComplete="email" value={vm.email} onChange={vm.setEmail} error={vm.emailError} />
          <FormError message={vm.error} />
          <Button type="submit" variant="brand" size="lg" loading={vm.busy}>
            Send code
          </Button>
        </AuthForm>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      bare
      title="Choose a new password"
      description={
        <>
          Enter the code we sent to <strong className="font-medium text-foreground">{vm.email}</strong> and your new password.
        </>
      }
      footer={
        <Button variant="link" size="sm" className="h-auto px-0" onClick={vm.changeEmail}>
          Use a different email
        </Button>
      }
    >
      <AuthForm onSubmit={() => void vm.submit()}>
        {vm.codeAccepted ? null : (
          <div className="grid gap-2">
            <CodeInput
              label="Reset code"
              code={vm.code}
              digits={vm.digits}
              onChange={vm.setCode}
              readOnly={vm.busy}
              invalid={vm.codeError !== null}
              autoFocus
            />
            <FieldError id={`${id}-code-error`} message={vm.codeError} />
          </div>
        )}
        <TextField
          id={`${id}-password`}
          label="New password"
          type="password"
          autoComplete="new-password"
          value={vm.password}
          onChange={vm.setPassword}
          error={vm.passwordError}
          hint={<PasswordRules id={`${id}-rules`} rules={vm.passwordRules} />}
          hintId={`${id}-rules`}
        />
        <FormError message={vm.error} />
        <FormNotice message={vm.notice} />
        <Button type="submit" variant="brand" size="lg" loading={vm.busy}>
          Reset password
        </Button>
        {vm.codeAccepted ? null : (
          <Button variant="link" size="sm" className="h-auto tabular-nums" disabled={!vm.canResend} onClick={() => void vm.resend()}>
            {vm.resendLabel}
          </Button>
        )}
      </AuthForm>
    </AuthScreen>
  );
});
