import { Container } from 'inversify';
import { FetchHttpClient } from './api/http';
import { HttpProfileApi } from './api/profile.api';
import { browserTimers } from './app/browser-timers';
import {
  type BuilderPreferencesStore,
  type HttpClient,
  type KeyValueStorage,
  type Navigator,
  type SessionService,
  type Timers,
  type TwoFactorService,
  TYPES,
} from './app/ports';
import { HttpSandboxApi } from './api/sandbox.api';
import { FetchSandboxFeed, type SandboxFeed, browserFeedScheduler } from './api/sandbox-feed';
import { HttpAiApi } from './api/ai.api';
import { HttpAttachmentsApi } from './api/attachments.api';
import { PendingFilesStore } from './features/builder/chat/pending-files.store';
import { HttpHostingApi } from './api/hosting.api';
import { HttpDatabasesApi } from './api/databases.api';
import { DatabaseVm } from './features/databases/database.vm';
import { ProjectDatabaseStore } from './features/databases/project-database.store';
import { ProjectPreviewVm } from './features/hosting/project-preview.vm';
import { PublishVm } from './features/hosting/publish.vm';
import { ProjectSettingsVm } from './features/builder/project-settings/project-settings.vm';
import { RepositoryImportVm } from './features/builder/project-settings/repository-import.vm';
import { StoredBuilderPreferences } from './features/builder/builder-preferences';
import { StoredChatPreferences } from './features/builder/chat/chat-preferences';
import { ChatVm } from './features/builder/chat/chat.vm';
import { BuilderVm } from './features/builder/builder.vm';
import { SandboxSetup } from './features/builder/sandbox-setup';
import { AuthCallbackVm } from './features/auth/auth-callback.vm';
import { CodeCooldowns } from './features/auth/code-cooldown';
import { ConfirmVm } from './features/auth/confirm.vm';
import { GetStartedVm } from './features/auth/get-started.vm';
import { LoginVm } from './features/auth/login.vm';
import { SignOutVm } from './features/auth/sign-out.vm';
import { CreationVm } from './features/creation/creation.vm';
import { HttpProjectsApi } from './api/projects.api';
import { HttpTemplatesApi } from './api/templates.api';
import { WizardVm } from './features/wizard/wizard.vm';
import { PostSignInFlow } from './features/auth/post-sign-in.flow';
import { ProfileSetupVm } from './features/auth/profile-setup.vm';
import { ResetPasswordVm } from './features/auth/reset-password.vm';
import { SignupVm } from './features/auth/signup.vm';
import { VerifyVm } from './features/auth/verify.vm';
import { HomeVm } from './features/home/home.vm';
import { ProjectsVm } from './features/home/projects.vm';
import { ReferralCapture } from './features/referral-capture/referral-capture';
import { RouterNavigator } from './routes/navigator';
import { RouteGuardVm } from './routes/route-guard.vm';
import { createAuthClient } from './session/auth-client';
import { SupabaseSessionService } from './session/supabase-session.service';
import { SupabaseTwoFactorService } from './session/supabase-two-factor.service';
import { BrowserKeyValueStorage } from './storage/browser-storage';
import { StoredSavedPrompts } from './storage/saved-prompts';
import { type BindUiOptions, bindUi } from './container.ui';

/** Replacements for the browser-bound services (tests build the container under Node). */
export interface ContainerOptions extends BindUiOptions {
  readonly session?: SessionService;
  readonly twoFactor?: TwoFactorService;
  readonly storage?: KeyValueStorage;
  readonly timers?: Timers;
}

/**
 * The web app's composition root: every view-model and API client is bound here.
 * Singletons are services shared by the whole app; view-models are transient (each mounted
 * view gets its own). Browser-only things are built lazily (toDynamicValue), so tests can
 * create the container under Node and resolve what they need.
 */
export function createContainer(options: ContainerOptions = {}): Container {
  const container = new Container();

  // ── Platform: storage, time, navigation ─────────────────────────────────────────────────
  container.bind<KeyValueStorage>(TYPES.Storage).toConstantValue(options.storage ?? new BrowserKeyValueStorage());
  container.bind<Timers>(TYPES.Timers).toConstantValue(options.timers ?? browserTimers);
  const routerNavigator = new RouterNavigator();
  container.bind(RouterNavigator).toConstantValue(routerNavigator); // main.tsx attaches the router
  container.bind<Navigator>(TYPES.Navigator).toConstantValue(routerNavigator);
  container.bind(TYPES.SavedPrompts).to(StoredSavedPrompts).inSingletonScope();

  // ── Session and HTTP ────────────────────────────────────────────────────────────────────
  // One auth-js client: the session and its second factors share its stored session.
  let authClient: ReturnType<typeof createAuthClient> | null = null;
  const sharedAuthClient = () => (authClient ??= createAuthClient(window.location.origin, window.localStorage));
  container
    .bind<SessionService>(TYPES.Session)
    .toDynamicValue(() => options.session ?? new SupabaseSessionService(sharedAuthClient()))
    .inSingletonScope();
  container
    .bind<TwoFactorService>(TYPES.TwoFactor)
    .toDynamicValue(() => options.twoFactor ?? new SupabaseTwoFactorService(sharedAuthClient().mfa))
    .inSingletonScope();
  container
    .bind<HttpClient>(TYPES.Http)
    .toDynamicValue((context) => {
      const session = context.get<SessionService>(TYPES.Session);
      return new FetchHttpClient({ fetch: (input, init) => fetch(input, init), accessToken: () => session.accessToken() });
    })
    .inSingletonScope();
  // The same client reads streaming replies (an AI turn's events), tried once.
  container.bind(TYPES.StreamingHttp).toService(TYPES.Http);
  // …and downloads files (Export as zip).
  container.bind(TYPES.Download).toService(TYPES.Http);
  container.bind(TYPES.ProfileApi).to(HttpProfileApi).inSingletonScope();
  container.bind(TYPES.ProjectsApi).to(HttpProjectsApi).inSingletonScope();
  container.bind(CreationVm).toSelf();
  // The template catalog and the setup wizard (/wizard/{projectId}).
  container.bind(TYPES.TemplatesApi).to(HttpTemplatesApi).inSingletonScope();
  container.bind(WizardVm).toSelf();

  // ── Builder: the sandbox API, its realtime feed, stored layout preferences ──────────────
  container.bind(TYPES.SandboxApi).to(HttpSandboxApi).inSingletonScope();
  container
    .bind<SandboxFeed>(TYPES.SandboxFeed)
    .toDynamicValue((context) => {
      const session = context.get<SessionService>(TYPES.Session);
      return new FetchSandboxFeed({
        fetch: (input, init) => fetch(input, init),
        accessToken: () => session.accessToken(),
        scheduler: browserFeedScheduler,
        log: (message, detail) => console.warn(message, detail),
      });
    })
    .inSingletonScope();
  container.bind<BuilderPreferencesStore>(TYPES.BuilderPreferences).to(StoredBuilderPreferences).inSingletonScope();
  container.bind(SandboxSetup).toSelf().inSingletonScope();
  container.bind(BuilderVm).toSelf();
  container.bind(ProjectSettingsVm).toSelf();
  container.bind(RepositoryImportVm).toSelf();

  // ── Builder chat: AI turns over the streaming client, the auto-run preference ───────────
  container.bind(TYPES.AiApi).to(HttpAiApi).inSingletonScope();
  container.bind(TYPES.ChatPreferences).to(StoredChatPreferences).inSingletonScope();
  container.bind(ChatVm).toSelf();
  // SPEC §3 project store "pending files": one store, the composer's files kept per project until sent.
  container.bind(TYPES.AttachmentsApi).to(HttpAttachmentsApi).inSingletonScope();
  container.bind(PendingFilesStore).toSelf().inSingletonScope();

  // ── Publishing: the builder's Publish dialog and the public /project-preview/{slug} ───────
  container.bind(TYPES.HostingApi).to(HttpHostingApi).inSingletonScope();
  container.bind(PublishVm).toSelf();
  container.bind(ProjectPreviewVm).toSelf();

  // ── Project databases: the builder's Database dialog; the store holds SPEC §3 databaseConnected ──
  container.bind(TYPES.DatabasesApi).to(HttpDatabasesApi).inSingletonScope();
  container.bind(ProjectDatabaseStore).toSelf().inSingletonScope();
  container.bind(DatabaseVm).toSelf();

  // ── Auth, routing, referral capture ─────────────────────────────────────────────────────
  container.bind(ReferralCapture).toSelf().inSingletonScope();
  container.bind(PostSignInFlow).toSelf().inSingletonScope();
  container.bind(CodeCooldowns).toSelf().inSingletonScope();
  container.bind(RouteGuardVm).toSelf();
  container.bind(GetStartedVm).toSelf();
  container.bind(SignupVm).toSelf();
  container.bind(LoginVm).toSelf();
  container.bind(SignOutVm).toSelf();
  container.bind(VerifyVm).toSelf();
  container.bind(ResetPasswordVm).toSelf();
  container.bind(ConfirmVm).toSelf();
  container.bind(ProfileSetupVm).toSelf();
  container.bind(AuthCallbackVm).toSelf();

  // ── Landing page ────────────────────────────────────────────────────────────────────────
  container.bind(HomeVm).toSelf();
  container.bind(ProjectsVm).toSelf();

  // ── UI features: toasts, color mode, analytics, pricing, settings (container.ui.ts) ─────
  bindUi(container, options);

  return container;
}
