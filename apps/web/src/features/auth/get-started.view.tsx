import { observer } from 'mobx-react-lite';
import { Sparkles } from 'lucide-react';
import { ButtonLink } from '../../ui/button';
import { useVm } from '../../use-vm';
import { AuthLink, AuthScreen } from './auth-screen';
import { GetStartedVm } from './get-started.vm';

export const GetStartedView = observer(function GetStartedView() {
  const vm = useVm(GetStartedVm);
  return (
    <AuthScreen
      title="Get started with Kiln"
      description="Create an account to turn your idea into a working app, or log in to pick up where you left off."
      footer={
        <>
          By continuing you agree to our <AuthLink to="/legal/terms-of-service">Terms of Service</AuthLink> and{' '}
          <AuthLink to="/legal/privacy-policy">Privacy Policy</AuthLink>.
        </>
      }
    >
      <div className="grid gap-4">
        {vm.landingPrompt === null ? null : (
          <figure className="grid gap-1 rounded-lg border border-border bg-muted/50 p-3">
            <figcaption className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
              <Sparkles className="size-3.5" aria-hidden /> Your idea
            </figcaption>
            <blockquote className="line-clamp-4 text-sm whitespace-pre-wrap">{vm.landingPrompt}</blockquote>
          </figure>
        )}
        <ButtonLink to="/signup" variant="brand" size="lg">
          Sign up
        </ButtonLink>
        <ButtonLink to="/login" variant="outline" size="lg">
          Log in
        </ButtonLink>
      </div>
    </AuthScreen>
  );
});
