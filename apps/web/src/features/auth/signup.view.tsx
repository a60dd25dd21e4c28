import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { useVm } from '../../use-vm';
import { AuthLink, AuthScreen, FieldError, FormError } from './auth-screen';
import { PasswordRules } from './password-rules';
import { SignupVm } from './signup.vm';

export const SignupView = observer(function SignupView() {
  const vm = useVm(SignupVm);
  const id = useId();
  return (
    <AuthScreen
      title="Create your account"
      description="We'll email you a 6-digit code to confirm your address."
      footer={
        <>
          Already have an account? <AuthLink to="/login">Log in</AuthLink>
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
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} autoComplete="name" value={vm.name} onChange={(e) => vm.setName(e.target.value)} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            required
            value={vm.email}
            onChange={(e) => vm.setEmail(e.target.value)}
            aria-invalid={vm.emailError !== null || undefined}
            aria-describedby={vm.emailError === null ? undefined : `${id}-email-error`}
          />
          <FieldError id={`${id}-email-error`} message={vm.emailError} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-password`}>Password</Label>
          <Input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            required
            value={vm.password}
            onChange={(e) => vm.setPassword(e.target.value)}
            aria-invalid={vm.passwordError !== null || undefined}
            aria-describedby={vm.passwordError === null ? `${id}-rules` : `${id}-rules ${id}-password-error`}
          />
          <PasswordRules id={`${id}-rules`} rules={vm.passwordRules} />
          <FieldError id={`${id}-password-error`} message={vm.passwordError} />
        </div>
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting}>
          Create account
        </Button>
      </form>
    </AuthScreen>
  );
});
