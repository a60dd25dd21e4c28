import type { Plan } from '../plans/plan.entity.js';
import { type Result, err, ok } from '../shared/result.js';
import { type PublishError, publishLimitReached, publishingNotIncluded } from './publishing.errors.js';

/**
 * SPEC §5: publishing (or connecting a custom domain) is allowed if the plan's published
 * projects are unlimited, or the count of active projects with a domain is below the limit.
 * An unknown plan id gives limit 0 — deliberately not the free-plan fallback of reads.
 */
export function decidePublish(
  plan: Plan | undefined,
  storedPlanId: string,
  publishedCount: number,
): Result<{ readonly limit: number | 'unlimited' }, PublishError> {
  const limit = plan ? plan.features.publishedProjects : { kind: 'limited' as const, value: 0 };
  if (limit.kind === 'unlimited') return ok({ limit: 'unlimited' });
  if (limit.value === 0) return err(publishingNotIncluded(plan?.name ?? storedPlanId));
  if (publishedCount >= limit.value) return err(publishLimitReached(limit.value));
  return ok({ limit: limit.value });
}
