// First versions of the product's other screens (SPEC §2). The router picks their layouts.
export { CancellationRefundPolicyPage, CookiesPolicyPage, PrivacyPolicyPage, TermsOfServicePage } from './legal-pages';
export { BetaPage, ContactUsPage, PitchDeckPage } from './marketing-pages';
export { ErrorPage, NotFoundPage, errorPageTitle } from './status-pages';
export { pageNotFoundMessage, requireCreationParam, requireProjectIdParam } from './page-params';
