import type { DomainError } from '../shared/domain-error.js';

export type ProfileNotFound = DomainError<'PROFILES.NOT_FOUND'> & { readonly userId: string };

export const profileNotFound = (userId: string): ProfileNotFound => ({
  code: 'PROFILES.NOT_FOUND',
  userId,
  message: `Record with id ${userId} not found`,
});
