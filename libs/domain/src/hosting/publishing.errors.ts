import type { DomainError } from '../shared/domain-error.js';

/** SPEC §8 "Publish check" messages. */
export type PlanUndetermined = DomainError<'PUBLISHING.PLAN_UNDETERMINED'>;
export type PublishingNotIncluded = DomainError<'PUBLISHING.NOT_INCLUDED'> & {
  readonly limitType: 'published';
  readonly plan: string;
};
export type PublishLimitReached = DomainError<'PUBLISHING.LIMIT_REACHED'> & {
  readonly limitType: 'published';
  readonly limit: number;
};
export type PublishCheckFailed = DomainError<'PUBLISHING.CHECK_FAILED'>;

export type PublishError = PlanUndetermined | PublishingNotIncluded | PublishLimitReached | PublishCheckFailed;

export const planUndetermined = (): PlanUndetermined => ({
  code: 'PUBLISHING.PLAN_UNDETERMINED',
  message: 'Unable to determine subscription plan',
});
export const publishingNotIncluded = (plan: string): PublishingNotIncluded => ({
  code: 'PUBLISHING.NOT_INCLUDED',
  limitType: 'published',
  plan,
  message: `Your ${plan} plan doesn't include domain connections. Please upgrade to connect a custom domain.`,
});
export const publishLimitReached = (limit: number): PublishLimitReached => ({
  code: 'PUBLISHING.LIMIT_REACHED',
  limitType: 'published',
  limit,
  message: `You've reached your limit of ${limit} published project(s). Please upgrade to connect more domains.`,
});
export const publishCheckFailed = (): PublishCheckFailed => ({
  code: 'PUBLISHING.CHECK_FAILED',
  message: 'Error checking subscription limits. Please try again.',
});
