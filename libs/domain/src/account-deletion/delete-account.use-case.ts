import type { AuthUserNotFound } from '../auth/auth.errors.js';
import type { GetUser } from '../auth/get-user.use-case.js';
import type { SoftDeleteAccount } from '../auth/soft-delete-account.use-case.js';
import type { CancelSubscription } from '../billing/cancel-subscription.use-case.js';
import type { PaymentEventError } from '../billing/handle-payment-event.use-case.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { RemoveMarketingContact } from '../marketing/remove-marketing-contact.use-case.js';
import type { DeleteProject } from '../projects/delete-project.use-case.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import type { SandboxLifecycle } from '../sandbox/sandbox-lifecycle.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';

/** The two auth steps account deletion needs (the built-in auth's use cases). */
export interface AccountAuth {
  readonly getUser: Pick<GetUser, 'execute'>;
  readonly softDeleteAccount: Pick<SoftDeleteAccount, 'execute'>;
}

export interface DeletedAccount {
  readonly deletedAt: Date;
  /** True when a paid subscription was set to end at its period end. */
  readonly subscriptionCancelled: boolean;
  /** Projects deleted (status deleted): sites taken down, sandboxes removed, databases dropped. */
  readonly projectsHidden: number;
}

/**
 * POST /api/auth/soft-delete, the whole of it: the subscription is cancelled at its period end
 * first (nothing is billed again), then every project goes — its sandbox stopped and removed, then
 * DeleteProject: its published site taken down, its database dropped, the row marked deleted
 * (hidden everywhere) — then the profile is marked deleted (hidden from every lookup, its
 * referral code no longer resolves) — and only then is the account marked deleted and every session
 * ended. The sign-in goes last so that a step failing on an unreachable provider (a 503) leaves
 * the person signed in to retry; every step is idempotent, so a retry finishes the job.
 * Before the sign-in ends, the marketing contact's deletion is queued (RemoveMarketingContact:
 * delivered by the marketing worker, even if the audience is down right now).
 */
export class DeleteAccount {
  constructor(
    private readonly auth: AccountAuth,
    private readonly profiles: Pick<ProfileRepository, 'findById' | 'markDeleted'>,
    private readonly cancelSubscription: Pick<CancelSubscription, 'execute'>,
    private readonly projects: Pick<ProjectRepository, 'listByCreator'>,
    private readonly deleteProject: Pick<DeleteProject, 'execute'>,
    private readonly sandboxes: Pick<SandboxLifecycle, 'cleanup'>,
    private readonly marketing: Pick<RemoveMarketingContact, 'execute'>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string }): Promise<Result<DeletedAccount, AuthUserNotFound | PaymentEventError | DomainError>> {
    const user = await this.auth.getUser.execute({ userId: input.userId });
    if (!user.ok) return user;

    const subscriptionCancelled = await this.cancelAtPeriodEnd(input.userId);
    if (!subscriptionCancelled.ok) return subscriptionCancelled;

    let projectsHidden = 0;
    for (const project of await this.projects.listByCreator(input.userId)) {
      if (project.status === 'deleted') continue;
      // The sandbox first: once the project is deleted a retry would no longer find it.
      await this.sandboxes.cleanup(project.id);
      const deleted = await this.deleteProject.execute(input.userId, project.id);
      if (deleted.ok) projectsHidden += 1;
      else if (deleted.error.code !== 'PROJECTS.NOT_FOUND') return deleted; // gone meanwhile: fine
    }

    const profile = await this.profiles.findById(input.userId);
    if (profile) await this.marketing.execute(profile.email);
    // Before the sign-in ends, so a failure here leaves the person signed in to retry.
    if (profile) await this.profiles.markDeleted(input.userId, this.clock.now());

    const deleted = await this.auth.softDeleteAccount.execute({ userId: input.userId });
    if (!deleted.ok) return deleted;
    return ok({ deletedAt: deleted.value.deletedAt, subscriptionCancelled: subscriptionCancelled.value, projectsHidden });
  }

  private async cancelAtPeriodEnd(userId: string): Promise<Result<boolean, PaymentEventError>> {
    const profile = await this.profiles.findById(userId);
    if (!profile?.subscriptionId) return ok(false);
    const cancelled = await this.cancelSubscription.execute({ userId, subscriptionId: profile.subscriptionId });
    if (cancelled.ok) return ok(true);
    // A profile that went away or a subscription already gone meanwhile leaves nothing to bill.
    switch (cancelled.error.code) {
      case 'BILLING.NO_SUBSCRIPTION':
      case 'BILLING.NOT_YOUR_SUBSCRIPTION':
      case 'PROFILES.NOT_FOUND':
        return ok(false);
      default:
        return err(cancelled.error);
    }
  }
}
