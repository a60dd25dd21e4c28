import type { DomainError } from '../shared/domain-error.js';

/** The private-project limit of the plan is reached (upgrade dialog limit type "project"). */
export type ProjectLimitReached = DomainError<'PROJECTS.LIMIT_REACHED'> & {
  readonly limitType: 'project';
  readonly limit: number;
};

export const projectLimitReached = (planName: string, limit: number): ProjectLimitReached => ({
  code: 'PROJECTS.LIMIT_REACHED',
  limitType: 'project',
  limit,
  message: `Your ${planName} plan includes ${limit} private project${limit === 1 ? '' : 's'}. Please upgrade to create more.`,
});

/** SPEC §5: "Record with id {id} not found" — also for another user's project. */
export type ProjectNotFound = DomainError<'PROJECTS.NOT_FOUND'>;

export const projectNotFound = (projectId: string): ProjectNotFound => ({
  code: 'PROJECTS.NOT_FOUND',
  message: `Record with id ${projectId} not found`,
});

/**
 * Another change to the project holds its turn lock (an AI turn running or queued, or another
 * theme being applied): a short edit outside a turn is refused instead of interleaving with it.
 */
export type ProjectBusy = DomainError<'PROJECTS.BUSY'>;

export const projectBusy = (): ProjectBusy => ({
  code: 'PROJECTS.BUSY',
  message: 'This project is being changed right now (the assistant is working on it). Try again when it has finished.',
});
