// The public entry point of @kiln/domain: pure rules, use cases and ports.

// shared
export * from './shared/result.js';
export * from './shared/domain-error.js';
export * from './shared/clock.port.js';
export * from './shared/ids.port.js';
export * from './shared/random.port.js';
export * from './shared/unit-of-work.port.js';
export * from './shared/limit.js';
export * from './shared/percent.js';
export * from './shared/money.js';
export * from './shared/abort-signal.js';
export * from './shared/problem-log.port.js';

// plans
export * from './plans/plan.entity.js';
export * from './plans/plan.errors.js';
export * from './plans/plan-catalog.js';
export * from './accounts/change-plan.use-case.js';

// profiles
export * from './profiles/profile.entity.js';
export * from './profiles/profile.errors.js';
export * from './profiles/profile-repository.port.js';
export * from './accounts/ensure-profile-on-sign-in.use-case.js';
export * from './account-deletion/delete-account.use-case.js';
export * from './file-actions/protected-paths.js';
export * from './file-actions/clean-up.js';
export * from './file-actions/file-actions.use-cases.js';
export * from './file-actions/export-project.use-case.js';
export * from './repository-import/git-url.js';
export * from './repository-import/repository-importer.port.js';
export * from './repository-import/setup-repository.use-case.js';
export * from './profiles/update-profile-details.use-case.js';

// credits
export * from './credits/credit.constants.js';
export * from './credits/ledger-keys.js';
export * from './credits/ledger-entry.js';
export * from './credits/credit.errors.js';
export * from './credits/credit-account.js';
export * from './credits/credit-ledger.port.js';
export * from './credits/allowance-cycle.js';
export * from './credits/allowance.js';
export * from './credits/usage-stats.js';
export * from './credits/grant-monthly-allowance.use-case.js';
export * from './credits/consume-prompt-credit.use-case.js';
export * from './credits/refund-prompt-credit.use-case.js';
export * from './credits/grant-add-on-credits.use-case.js';
export * from './credits/get-usage-stats.use-case.js';

// referrals
export * from './referrals/referral-code.js';
export * from './referrals/referral.errors.js';
export * from './referrals/referral-codes.port.js';
export * from './referrals/generate-referral-code.use-case.js';
export * from './referrals/apply-referral.use-case.js';

// projects
export * from './projects/project.entity.js';
export * from './projects/project.errors.js';
export * from './projects/project-repository.port.js';
export * from './projects/create-project.use-case.js';
export * from './projects/owned-projects.js';
export * from './projects/list-projects.use-case.js';
export * from './projects/rename-project.use-case.js';
export * from './projects/delete-project.use-case.js';
export * from './projects/project-ownership.js';
export * from './projects/project-takedown.port.js';
export * from './projects/project-database-removal.port.js';

// databases: a PostgreSQL database per project (docs/databases.md)
export * from './databases/project-database.entity.js';
export * from './databases/database-ref.js';
export * from './databases/database-limits.js';
export * from './databases/databases.errors.js';
export * from './databases/anon-key.js';
export * from './databases/database-provisioner.port.js';
export * from './databases/table-sample.js';
export * from './databases/schema-migrator.port.js';
export * from './ai/engine/turn-migrations.port.js';
export * from './databases/use-cases/database-rls-safety.js';
export * from './hosting/database-safety.port.js';
export * from './databases/use-cases/apply-migrations.use-case.js';
export * from './databases/project-database-repository.port.js';
export * from './databases/use-cases/provision-database.use-case.js';
export * from './databases/use-cases/check-database.use-case.js';
export * from './databases/use-cases/delete-database.use-case.js';
export * from './databases/use-cases/drop-project-database.use-case.js';
export * from './databases/use-cases/get-database-connection.use-case.js';
export * from './databases/use-cases/database-quota-guard.js';
export * from './databases/use-cases/describe-database-for-assistant.use-case.js';
// hosting: publishing, releases, custom domains (docs/hosting.md)
export * from './hosting/publishing.errors.js';
export * from './hosting/publish-rule.js';
export * from './hosting/check-publish-allowed.use-case.js';
export * from './hosting/hosting.errors.js';
export * from './hosting/release.entity.js';
export * from './hosting/published-site.entity.js';
export * from './hosting/custom-domain.entity.js';
export * from './hosting/custom-domain-lifecycle.js';
export * from './hosting/hosting-repository.port.js';
export * from './hosting/hosting-provider.port.js';
export * from './hosting/dns-resolver.port.js';
export * from './hosting/certificate-authority.port.js';
export * from './hosting/site-screenshotter.port.js';
export * from './hosting/published-urls.js';
export * from './hosting/site-slug.js';
export * from './hosting/domain-name.js';
export * from './hosting/punycode.js';
export * from './hosting/use-cases/site-hosts.js';
export * from './hosting/use-cases/check-project-publish.use-case.js';
export * from './hosting/use-cases/publish-project.use-case.js';
export * from './hosting/use-cases/unpublish-project.use-case.js';
export * from './hosting/use-cases/rollback-release.use-case.js';
export * from './hosting/use-cases/restart-site.use-case.js';
export * from './hosting/use-cases/add-custom-domain.use-case.js';
export * from './hosting/use-cases/verify-custom-domain.use-case.js';
export * from './hosting/use-cases/remove-custom-domain.use-case.js';
export * from './hosting/use-cases/get-publish-status.use-case.js';
export * from './hosting/use-cases/list-published-sites.use-case.js';
export * from './hosting/use-cases/take-site-screenshot.use-case.js';
export * from './hosting/use-cases/public-sites.use-cases.js';
export * from './hosting/use-cases/take-down-site.js';

// small rules and ports of other contexts
export * from './analytics/tracking-event.js';
export * from './analytics/analytics-gate.js';
export * from './analytics/analytics.port.js';
export * from './sandbox/code-error.js';
export * from './sandbox/error-scan.js';
export * from './ai/ai-phase.js';
export * from './theme/theme.js';
export * from './theme/theme.errors.js';
export * from './theme/apply-project-theme.use-case.js';
export * from './theme/theme-reading.js';
export * from './sandbox/sandbox-host.port.js';
export * from './sandbox/sandbox-lifecycle.port.js';
export * from './sandbox/sandbox-files.port.js';
export * from './sandbox/sandbox-file-actions.port.js';
export * from './sandbox/sandbox-commands.port.js';
export * from './sandbox/sandbox-versions.port.js';
export * from './sandbox/sandbox-diagnostics.port.js';
export * from './sandbox/sandbox-dev-server.port.js';
export * from './sandbox/sandbox-dependencies.port.js';
export * from './sandbox/package-command.js';
export * from './sandbox/package-manifest.js';
export * from './sandbox/tree-ignore.js';
export * from './sandbox/version-excludes.js';
export * from './sandbox/sandbox-path.js';
export * from './sandbox/sandbox-limits.js';
export * from './sandbox/dependency-set.js';
export * from './sandbox/package-spec.js';
export * from './sandbox/project-files-changed.port.js';
export * from './sandbox/command-feed.port.js';
export * from './sandbox/sandbox-missing.js';
export * from './sandbox/use-cases/project-files.use-cases.js';
export * from './sandbox/use-cases/project-commands.use-cases.js';
export * from './sandbox/use-cases/package-install.js';
export * from './sandbox/use-cases/project-versions.use-cases.js';
export * from './sandbox/use-cases/project-sandbox.use-cases.js';
export * from './ai/ai-assistant.port.js';
export * from './ai/assistant-stream.js';
export * from './ai/operations/file-operation.js';
export * from './ai/throttle-ai-request.use-case.js';
export * from './ai/helpers/ai-helpers.use-cases.js';
export * from './ai/app-name.js';
export * from './ai/landing-examples.js';
export * from './mail/mailer.port.js';
export * from './vector/vector-index.port.js';
export * from './vector/vector-query.js';
export * from './vector/search-terms.js';
export * from './vector/chunking.js';
export * from './vector/ranking.js';
export * from './vector/context-selection.js';
export * from './vector/sync-project-index.js';
export * from './vector/select-project-context.js';
export * from './geo/geo-locator.port.js';
export * from './geo/currency-for-location.js';
export * from './geo/decide-checkout-currency.use-case.js';
export * from './billing/payment-gateway.port.js';

// auth
export * from './auth/access-token.port.js';
export * from './auth/auth.constants.js';
export * from './auth/auth.errors.js';
export * from './auth/auth-settings.js';
export * from './auth/email-address.js';
export * from './auth/password-policy.js';
export * from './auth/auth-user.entity.js';
export * from './auth/auth-user-repository.port.js';
export * from './auth/password-hasher.port.js';
export * from './auth/secret-hasher.port.js';
export * from './auth/random-token.js';
export * from './auth/one-time-code.js';
export * from './auth/one-time-code-store.port.js';
export * from './auth/auth-session.js';
export * from './auth/session-store.port.js';
export * from './auth/access-token-signer.port.js';
export * from './auth/token-bucket.js';
export * from './auth/rate-limiter.port.js';
export * from './auth/auth-mail.js';
export * from './auth/code-sender.js';
export * from './auth/session-issuer.js';
export * from './auth/sign-up.use-case.js';
export * from './auth/verify-otp.use-case.js';
export * from './auth/request-otp.use-case.js';
export * from './auth/resend-code.use-case.js';
export * from './auth/recover.use-case.js';
export * from './auth/sign-in-with-password.use-case.js';
export * from './auth/refresh-session.use-case.js';
export * from './auth/logout.use-case.js';
export * from './auth/get-user.use-case.js';
export * from './auth/update-user.use-case.js';
export * from './auth/soft-delete-account.use-case.js';
export * from './auth/built-in-access-token-verifier.js';
export * from './auth/throttle-auth-request.use-case.js';
export * from './auth/auth-use-cases.js';

// billing
export * from './billing/payment-event.js';
export * from './billing/billing.errors.js';
export * from './billing/processed-payment-events.port.js';
export * from './billing/payment-webhook.port.js';
export * from './billing/handle-payment-event.use-case.js';
export * from './billing/start-checkout.use-case.js';
export * from './billing/buy-add-on-credits.use-case.js';
export * from './billing/open-customer-portal.use-case.js';
export * from './billing/cancel-subscription.use-case.js';
export * from './billing/force-update-subscription.use-case.js';

// AI turns
export * from './ai/engine/turn.entity.js';
export * from './ai/engine/turn.errors.js';
export * from './ai/engine/turn-event.js';
export * from './ai/engine/turn-repository.port.js';
export * from './ai/engine/turn-undo-journal.port.js';
export * from './ai/engine/project-turn-lock.js';
export * from './ai/engine/event-channel.js';
export * from './ai/context/turn-context.js';
export * from './ai/context/assistant-database.port.js';
export * from './ai/engine/turn-workspace.js';
export * from './ai/engine/turn-engine.js';
export * from './ai/engine/turn-ending.js';
export * from './ai/engine/run-turn.use-case.js';
export * from './ai/engine/accept-turn-plan.use-case.js';
export * from './ai/engine/cancel-turn-plan.use-case.js';
export * from './ai/engine/list-turns.use-case.js';
export * from './ai/engine/stop-turn.use-case.js';
export * from './ai/engine/running-turns.js';
export * from './ai/engine/replace-app-rule.js';
export * from './ai/engine/recover-interrupted-turns.use-case.js';

// databases: the data API's PostgREST grammar (docs/databases.md)
export * from './databases/rest/index.js';
