import { observer } from 'mobx-react-lite';
import { useEffect, useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../ui/button';
import { useVm } from '../../use-vm';
import { AuthForm, AuthLink, AuthScreen, FormError, TextField } from './auth-screen';
import { CodeInput } from './code-input';
import { LoginVm } from './login.vm';

export const LoginView = observer(function LoginView() {
  const vm = useVm(LoginVm);
  const id = useId();
  const [params] = useSearchParams();
  const email = params.get('email');
  useEffect(() => vm.init(email), [vm, email]);
  useEffect(() => () => vm.dispose(), [vm]);
  if (vm.step === 'code') return <SecondFactorStep vm={vm} />;
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
      <AuthForm onSubmit={() => void vm.submit()}>
        <TextField id={`${id}-email`} label="Email" type="email" autoComplete="email" required value={vm.email} onChange={vm.setEmail} error={vm.emailError} />
        <TextField
          id={`${id}-password`}
          label="Password"
          labelAside={
            <Link to={vm.resetPasswordHref} className="text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
              Forgot password?
            </Link>
          }
          type="password"
          autoComplete="current-password"
          required
          value={vm.password}
          onChange={vm.setPassword}
          error={vm.passwordError}
        />
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting}>
          Log in
        </Button>
      </AuthForm>
    </AuthScreen>
  );
});

/** After the password, on an account with an authenticator app: the app's current code. */
const SecondFactorStep = observer(function SecondFactorStep({ vm }: { vm: LoginVm }) {
  return (
    <AuthScreen
      title="Two-factor authentication"
      description="Open your authenticator app and enter the 6-digit code it shows for Kiln."
      footer={
        <>
          Not you?{' '}
          <Button variant="link" size="sm" className="h-auto px-0" onClick={() => void vm.useAnotherAccount()}>
            Log in with another account
          </Button>
        </>
      }
    >
      <AuthForm onSubmit={() => void vm.submitCode()}>
        <CodeInput label="Authentication code" code={vm.code} digits={vm.codeDigits} onChange={vm.setCode} readOnly={vm.submitting} invalid={vm.error !== null} autoFocus />
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting}>
          Verify
        </Button>
      </AuthForm>
    </AuthScreen>
  );
});
