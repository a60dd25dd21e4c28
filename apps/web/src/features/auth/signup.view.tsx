import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Button } from '../../ui/button';
import { useVm } from '../../use-vm';
import { AuthForm, AuthLink, AuthScreen, FormError, TextField } from './auth-screen';
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
      <AuthForm onSubmit={() => void vm.submit()}>
        <TextField id={`${id}-name`} label="Name" autoComplete="name" value={vm.name} onChange={vm.setName} />
        <TextField id={`${id}-email`} label="Email" type="email" autoComplete="email" required value={vm.email} onChange={vm.setEmail} error={vm.emailError} />
        <TextField
          id={`${id}-password`}
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={vm.password}
          onChange={vm.setPassword}
          error={vm.passwordError}
          hint={<PasswordRules id={`${id}-rules`} rules={vm.passwordRules} />}
          hintId={`${id}-rules`}
        />
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.submitting}>
          Create account
        </Button>
      </AuthForm>
    </AuthScreen>
  );
});
