import { observer } from 'mobx-react-lite';
import { useEffect, useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { useVm } from '../../use-vm';
import { AuthLink, AuthScreen, FieldError, FormError } from './auth-screen';
import { LoginVm } from './login.vm';

export const LoginView = observer(function LoginView() {
  const vm = useVm(LoginVm);
  const id = useId();
  const [params] = useSearchParams();
  const email = params.get('email');
  useEffect(() => vm.init(email), [vm, email]);
  useEffect(() => () => vm.dispose(), [vm]);
  return (
    <AuthScreen
      title="Log in to Kiln"
      description="Welcome back. Enter your email and password."
      footer={
        <>
          New to Kiln? <AuthLink to="/signup">Create an account</AuthLink>
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
          <div className="flex items-center justify-between">
            <Label htmlFor={`${id}-password`}>Password</Label>
            <Link to={vm.resetPasswordHref} className="text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
              Forgot password?
            </Link>
          </div>
          <Input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            required
            value={vm.password}
            onChange={(e) => vm.setPassword(e.target.value)}
            aria-invalid={vm.passwordError !== null || undefined}
            aria-describedby={vm.passwordError === null ? undefined : `${id}-password-error`}
          />
          <FieldError id={`${id}-password-error`} message={vm.passwordError} />
        </div>
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting}>
          Log in
        </Button>
      </form>
    </AuthScreen>
  );
});
