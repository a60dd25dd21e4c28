import { type DynamicModule, Module } from '@nestjs/common';
import { CancelSubscription, DeleteAccount } from '@kiln/domain';
import { AUTH_USE_CASES } from '../auth/auth.tokens.js';
import { useCase } from '../common/use-case.provider.js';
import { CLOCK, PROFILE_REPOSITORY, PROJECT_REPOSITORY, PROJECT_TAKEDOWN, SANDBOX_HOST } from '../tokens.js';

/**
 * Closing an account (POST /api/auth/soft-delete, served by the auth module's AccountController):
 * DeleteAccount over the auth use cases, the payments module's CancelSubscription, the projects,
 * hosting's takedown and the sandbox host. Global so that the auth module, which knows none of
 * these, can reach it; `payments` is the app's one PaymentsModule instance.
 */
@Module({})
export class AccountsModule {
  static forRoot(payments: DynamicModule): DynamicModule {
    return {
      module: AccountsModule,
      global: true,
      imports: [payments],
      providers: [
        useCase(DeleteAccount, [AUTH_USE_CASES, PROFILE_REPOSITORY, CancelSubscription, PROJECT_REPOSITORY, PROJECT_TAKEDOWN, SANDBOX_HOST, CLOCK]),
      ],
      exports: [DeleteAccount],
    };
  }
}
