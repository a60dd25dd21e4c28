import { type DynamicModule, Module } from '@nestjs/common';
import { CancelSubscription, DeleteAccount, DeleteProject, RemoveMarketingContact } from '@kiln/domain';
import { AUTH_USE_CASES } from '../auth/auth.tokens.js';
import { AccountController } from './account.controller.js';
import { useCase } from '../common/use-case.provider.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { CLOCK, PROFILE_REPOSITORY, PROJECT_REPOSITORY, SANDBOX_HOST } from '../tokens.js';

/**
 * Closing an account (POST /api/auth/soft-delete, AccountController):
 * DeleteAccount over the auth use cases, the payments module's CancelSubscription, the projects
 * module's DeleteProject (site taken down, database dropped), the sandbox host and marketing's
 * RemoveMarketingContact (global MarketingModule). The app adds it
 * only with the AuthModule (AUTH_USE_CASES); `payments` is the app's one PaymentsModule instance.
 */
@Module({})
export class AccountsModule {
  static forRoot(payments: DynamicModule): DynamicModule {
    return {
      module: AccountsModule,
      controllers: [AccountController],
      imports: [payments, ProjectsModule],
      providers: [
        useCase(DeleteAccount, [AUTH_USE_CASES, PROFILE_REPOSITORY, CancelSubscription, PROJECT_REPOSITORY, DeleteProject, SANDBOX_HOST, RemoveMarketingContact, CLOCK]),
      ],
    };
  }
}
