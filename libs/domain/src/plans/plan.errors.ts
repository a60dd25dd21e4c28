import type { DomainError } from '../shared/domain-error.js';

export type PlanConfigError = DomainError<'PLANS.INVALID_CONFIG'> & { readonly field: string };

export const invalidPlanConfig = (field: string, message: string): PlanConfigError => ({
  code: 'PLANS.INVALID_CONFIG',
  field,
  message,
});

export type UnknownPlan = DomainError<'PLANS.UNKNOWN'> & { readonly planId: string };

export const unknownPlan = (planId: string): UnknownPlan => ({
  code: 'PLANS.UNKNOWN',
  planId,
  message: `There is no plan ${planId}`,
});
