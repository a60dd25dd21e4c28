import type { PlanCatalog } from '../plans/plan-catalog.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { isPublished } from '../projects/project.entity.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { decidePublish } from './publish-rule.js';
import { type PublishError, planUndetermined, publishCheckFailed } from './publishing.errors.js';

export interface CheckPublishAllowedInput {
  readonly userId: string;
  /** The project to publish; one that is already published may change its domain freely. */
  readonly projectId?: string;
}

/** May this user publish (one more) project or connect a custom domain? */
export class CheckPublishAllowed {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly plans: PlanCatalog,
  ) {}

  async execute(input: CheckPublishAllowedInput): Promise<Result<{ limit: number | 'unlimited' }, PublishError>> {
    try {
      const profile = await this.profiles.findById(input.userId);
      if (!profile) return err(planUndetermined());
      if (input.projectId) {
        const project = await this.projects.findById(input.projectId);
        if (project && project.creatorId === profile.id && isPublished(project)) {
          // Changing the domain of a published project adds nothing to the count.
          const limit = this.plans.find(profile.subscriptionPlan)?.features.publishedProjects ?? { kind: 'limited', value: 0 };
          return ok({ limit: limit.kind === 'limited' ? limit.value : 'unlimited' });
        }
      }
      const count = await this.projects.countPublishedByCreator(profile.id);
      return decidePublish(this.plans.find(profile.subscriptionPlan), profile.subscriptionPlan, count);
    } catch {
      // SPEC §8: a failure while checking is reported to the user as a retryable message.
      return err(publishCheckFailed());
    }
  }
}
