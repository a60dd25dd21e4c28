import type { CodeError } from '../../sandbox/code-error.js';

/**
 * What a turn asks of the project's database when it changed the migrations folder
 * (docs/databases.md "Migrations"): apply the pending migrations. The answer is the errors they
 * produced, like find-errors' (empty when applied), so the turn's repair and revert logic treats
 * a failed migration as it treats a type error. Optional: without it (or for a project without a
 * database) turns are unaffected.
 */
export interface TurnMigrations {
  apply(projectId: string): Promise<readonly CodeError[]>;
}
