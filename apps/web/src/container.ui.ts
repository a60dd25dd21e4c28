// Bindings of the UI features: toasts, color mode, analytics, home, pricing, settings and the
// API clients they use. container.ts calls bindUi(container) once; it needs TYPES.Http,
// TYPES.Session, TYPES.Storage, TYPES.Timers, TYPES.Navigator, TYPES.SavedPrompts and
// TYPES.ProfileApi bound there. HomeVm is bound there too (bindUi binds it only if missing).
import type { Container } from 'inversify';
import { type Analytics, TYPES } from './app/ports';
import {
  BrowserClipboard,
  BrowserFileSaver,
  ConsoleLogger,
  CryptoIds,
  FetchUrlProbe,
  MatchMediaColorScheme,
  DocumentPageExit,
  WindowGtagHost,
  WindowMessageSource,
  WindowNavigation,
  readBrowserEnvironment,
} from './app/browser.adapters';
import { type BrowserEnvironment, UI_TYPES } from './app/ui-ports';
import { HttpAccountApi } from './api/account.api';
import { HttpAnalyticsApi } from './api/analytics.api';
import { HttpCurrencyApi } from './api/currency.api';
import { HttpPaymentsApi } from './api/payments.api';
import { HttpPlansApi } from './api/plans.api';
import { HttpReferralsApi } from './api/referrals.api';
import { HttpUsageApi } from './api/usage.api';
import { AddOnCreditsVm } from './features/billing/add-on-credits.vm';
import { BillingActionsVm } from './features/billing/billing-actions.vm';
import { PlanUsageVm } from './features/billing/plan-usage.vm';
import { ReferralBonusWatcher } from './features/billing/referral-bonus.watcher';
import { CheckoutReturnFlow } from './features/billing/checkout-return.flow';
import { CheckoutIntent } from './features/billing/checkout-intent';
import { IntentionalExit } from './features/billing/intentional-exit';
import { SubscriptionStore } from './features/billing/subscription.store';
import { UpgradeDialogStore } from './features/billing/upgrade-dialog.store';
import { AnalyticsService, PageViews } from './features/analytics/analytics.service';
import { AnalyticsSettings } from './features/analytics/analytics-settings';
import { FirstPartyAnalyticsSink } from './features/analytics/first-party-sink';
import { Ga4AnalyticsSink } from './features/analytics/ga4-sink';
import { KilnAnalyticsSink } from './features/analytics/kiln-analytics-sink';
import { SiteActivityVm } from './features/analytics/site-activity.vm';
import { ColorModeStore } from './features/color-mode/color-mode.store';
import { HomeVm } from './features/home/home.vm';
import { PricingVm } from './features/pricing/pricing.vm';
import { DeleteAccountVm } from './features/settings/delete-account.vm';
import { TwoFactorVm } from './features/settings/two-factor.vm';
import { SettingsVm } from './features/settings/settings.vm';
import { ToastStore } from './features/toasts/toast.store';

export interface BindUiOptions {
  /** Defaults to the real browser's (read once, at start). */
  readonly environment?: BrowserEnvironment;
}

export function bindUi(container: Container, options: BindUiOptions = {}): void {
  const environment = options.environment ?? readBrowserEnvironment();

  // Browser capabilities.
  container.bind(UI_TYPES.Environment).toConstantValue(environment);
  container.bind(UI_TYPES.Clipboard).to(BrowserClipboard).inSingletonScope();
  container.bind(UI_TYPES.FileSaver).to(BrowserFileSaver).inSingletonScope();
  container.bind(UI_TYPES.Navigation).to(WindowNavigation).inSingletonScope();
  container.bind(UI_TYPES.ColorSchemeMedia).to(MatchMediaColorScheme).inSingletonScope();
  container.bind(UI_TYPES.Logger).to(ConsoleLogger).inSingletonScope();
  container.bind(UI_TYPES.WindowMessages).to(WindowMessageSource).inSingletonScope();
  container.bind(UI_TYPES.UrlProbe).to(FetchUrlProbe).inSingletonScope();
  container.bind(UI_TYPES.Ids).to(CryptoIds).inSingletonScope();

  // App-wide stores: one instance shared by every view.
  container.bind(ToastStore).toSelf().inSingletonScope();
  container.bind(TYPES.Toasts).toService(ToastStore);
  container.bind(ColorModeStore).toSelf().inSingletonScope();
  // Analytics: Kiln's own store always, GA4 too when the API names a measurement id.
  container.bind(UI_TYPES.AnalyticsApi).to(HttpAnalyticsApi).inSingletonScope();
  container.bind(UI_TYPES.Gtag).to(WindowGtagHost).inSingletonScope();
  container.bind(UI_TYPES.PageExit).to(DocumentPageExit).inSingletonScope();
  container.bind(AnalyticsSettings).toSelf().inSingletonScope();
  container.bind(FirstPartyAnalyticsSink).toSelf().inSingletonScope();
  container.bind(Ga4AnalyticsSink).toSelf().inSingletonScope();
  container.bind(UI_TYPES.AnalyticsSink).to(KilnAnalyticsSink).inSingletonScope();
  container.bind<Analytics>(TYPES.Analytics).to(AnalyticsService).inSingletonScope();
  container.bind(PageViews).toSelf().inSingletonScope();

  // API clients over TYPES.Http (container.ts binds TYPES.ProfileApi).
  container.bind(TYPES.PlansApi).to(HttpPlansApi).inSingletonScope();
  container.bind(TYPES.UsageApi).to(HttpUsageApi).inSingletonScope();
  container.bind(TYPES.ReferralsApi).to(HttpReferralsApi).inSingletonScope();
  container.bind(TYPES.PaymentsApi).to(HttpPaymentsApi).inSingletonScope();
  container.bind(TYPES.CurrencyApi).to(HttpCurrencyApi).inSingletonScope();
  container.bind(TYPES.AccountApi).to(HttpAccountApi).inSingletonScope();

  // Billing: shared subscription state and the app-wide dialogs (one instance each).
  container.bind(SubscriptionStore).toSelf().inSingletonScope();
  container.bind(CheckoutReturnFlow).toSelf().inSingletonScope();
  container.bind(IntentionalExit).toSelf().inSingletonScope();
  container.bind(CheckoutIntent).toSelf().inSingletonScope();
  container.bind(UpgradeDialogStore).toSelf().inSingletonScope();
  container.bind(AddOnCreditsVm).toSelf().inSingletonScope();

  // View-models: transient, each mounted view gets its own.
  container.bind(BillingActionsVm).toSelf();
  container.bind(PlanUsageVm).toSelf();
  container.bind(ReferralBonusWatcher).toSelf().inSingletonScope();
  if (!container.isBound(HomeVm)) container.bind(HomeVm).toSelf();
  container.bind(PricingVm).toSelf();
  container.bind(SettingsVm).toSelf();
  container.bind(DeleteAccountVm).toSelf();
  container.bind(TwoFactorVm).toSelf();
  container.bind(SiteActivityVm).toSelf();
}
