import type { RouteObject } from 'react-router-dom';
import { AuthCallbackView } from '../features/auth/auth-callback.view';
import { ConfirmView } from '../features/auth/confirm.view';
import { GetStartedView } from '../features/auth/get-started.view';
import { LoginView } from '../features/auth/login.view';
import { ProfileSetupView } from '../features/auth/profile-setup.view';
import { ResetPasswordView } from '../features/auth/reset-password.view';
import { SignupView } from '../features/auth/signup.view';
import { VerifyView } from '../features/auth/verify.view';
import { HomeView } from '../features/home/home.view';
import {
  BetaPage,
  CancellationRefundPolicyPage,
  ContactUsPage,
  CookiesPolicyPage,
  ErrorPage,
  NotFoundPage,
  PitchDeckPage,
  PrivacyPolicyPage,
  TermsOfServicePage,
  requireCreationParam,
  requireProjectIdParam,
} from '../features/pages';
import { ProjectPreviewView } from '../features/hosting/project-preview.view';
import { PricingView } from '../features/pricing/pricing.view';
import { SettingsView } from '../features/settings/settings.view';
import { SiteActivityView } from '../features/analytics/site-activity.view';
import { AuthLayout, BuilderLayout, DefaultLayout, EmptyLayout, GradientLayout, GuestLayout, PreviewLayout } from '../layouts';
import { AppShell } from './app-shell';
import { RouteGuard, type RouteHandle } from './route-guard.view';
import { CreationView } from '../features/creation/creation.view';
import { WizardView } from '../features/wizard/wizard.view';
import { ThankYouView } from '../features/billing/thank-you.view';

const auth: RouteHandle = { guard: 'auth' };
const checkout: RouteHandle = { guard: 'checkout' };

/**
 * Every route of SPEC §2 with its layout. Access (public paths, the global auth redirect, the
 * 'auth' and checkout guards) is decided by RouteGuard from routes/access.ts; a route declares
 * its guard in `handle`. Unmatched paths are a 404 for everyone; a project page whose id cannot
 * be one is a 404 'Page Not Found: {path}' (SPEC §8); errors thrown while rendering show the error
 * page (SPEC §2).
 */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <ErrorPage />,
    children: [
      {
        element: <RouteGuard />,
        children: [
          {
            element: <GradientLayout />,
            children: [{ index: true, element: <HomeView /> }],
          },
          {
            element: <EmptyLayout />,
            children: [
              { path: 'get-started', element: <GetStartedView /> },
              { path: 'signup', element: <SignupView /> },
              { path: 'login', element: <LoginView /> },
              { path: 'verify', element: <VerifyView /> },
              { path: 'confirm', element: <ConfirmView /> },
              { path: 'profile-setup', element: <ProfileSetupView /> },
              { path: 'auth/callback', element: <AuthCallbackView /> },
              { path: 'creation/:projectId', loader: requireCreationParam, element: <CreationView /> },
              { path: 'wizard/:projectId', loader: requireProjectIdParam, element: <WizardView /> },
              { path: 'thank-you', handle: checkout, element: <ThankYouView /> },
            ],
          },
          {
            element: <AuthLayout />,
            children: [{ path: 'reset-password', element: <ResetPasswordView /> }],
          },
          {
            element: <DefaultLayout />,
            children: [
              { path: 'pricing', element: <PricingView /> },
              { path: 'settings', handle: auth, element: <SettingsView /> },
              // Operators only (OPERATOR_EMAILS): the API answers 403 to anyone else, and the page says so.
              { path: 'operators/activity', handle: auth, element: <SiteActivityView /> },
              { path: 'contact-us', element: <ContactUsPage /> },
              { path: 'legal/terms-of-service', element: <TermsOfServicePage /> },
              { path: 'legal/privacy-policy', element: <PrivacyPolicyPage /> },
              { path: 'legal/cookies-policy', element: <CookiesPolicyPage /> },
              { path: 'legal/cancellation-refund-policy', element: <CancellationRefundPolicyPage /> },
            ],
          },
          {
            element: <GuestLayout />,
            children: [{ path: 'beta', element: <BetaPage /> }],
          },
          {
            element: <BuilderLayout />,
            // The builder (preview, chat, file tree, panels) is its own chunk: the landing and auth
            // pages do not download it.
            children: [
              {
                path: 'builder/:projectId',
                loader: requireProjectIdParam,
                lazy: async () => ({ Component: (await import('../features/builder/builder.view')).BuilderView }),
              },
            ],
          },
          {
            element: <PreviewLayout />,
            children: [{ path: 'project-preview/:slug', element: <ProjectPreviewView /> }],
          },
          // No layout at all.
          { path: 'pitch-deck-gbm-jh-sss', element: <PitchDeckPage /> },
        ],
      },
      // Unmatched paths: a 404 for everyone, signed in or not.
      { element: <DefaultLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];
