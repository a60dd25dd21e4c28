import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Alert } from '../../ui/alert';
import { ButtonLink } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { useVm } from '../../use-vm';
import { AuthCallbackVm } from './auth-callback.vm';

export const AuthCallbackView = observer(function AuthCallbackView() {
  const vm = useVm(AuthCallbackVm);
  const { search, hash } = useLocation();
  useEffect(() => {
    void vm.finish({ search, hash });
    return () => vm.dispose();
  }, [vm, search, hash]);
  return (
    <div className="mx-auto flex min-h-dvh max-w-sm flex-col items-center justify-center gap-4 px-4">
      {vm.error === null ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner label="Signing you in" /> Signing you in…
        </p>
      ) : (
        <>
          <Alert tone="destructive" title="We couldn't sign you in">
            {vm.error}
          </Alert>
          <ButtonLink to="/get-started" variant="outline">
            Back to sign in
          </ButtonLink>
        </>
      )}
    </div>
  );
});
