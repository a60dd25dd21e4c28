import { observer } from 'mobx-react-lite';
import { MailCheck } from 'lucide-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ButtonLink } from '../../ui/button';
import { useVm } from '../../use-vm';
import { AuthLink, AuthScreen } from './auth-screen';
import { ConfirmVm } from './confirm.vm';

export const ConfirmView = observer(function ConfirmView() {
  const vm = useVm(ConfirmVm);
  const [params] = useSearchParams();
  const email = params.get('email');
  const token = params.get('token');
  const type = params.get('type');
  useEffect(() => vm.init({ email, token, type }), [vm, email, token, type]);
  return (
    <AuthScreen
      title="Confirm your email"
      description={
        vm.email === '' ? (
          'We emailed you a 6-digit code. Enter it to confirm your address.'
        ) : (
          <>
            We emailed a 6-digit code to <strong className="font-medium text-foreground">{vm.email}</strong>. Enter it to confirm your address.
          </>
        )
      }
      footer={
        <>
          No email? Check your spam folder, or <AuthLink to="/signup">sign up again</AuthLink>.
        </>
      }
    >
      <div className="grid gap-4">
        <MailCheck className="mx-auto size-10 text-brand" aria-hidden />
        <ButtonLink to={vm.verifyHref} variant="brand" size="lg">
          Enter the code
        </ButtonLink>
      </div>
    </AuthScreen>
  );
});
