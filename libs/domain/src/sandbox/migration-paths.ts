/**
 * Where a project keeps its SQL migrations, the first folder that exists wins (Supabase's layout
 * first). A project-file rule: turns (a turn that wrote one runs them) and the databases context
 * (which applies them) both read it, so it lives with the other path rules of the sandbox.
 */
export const MIGRATION_FOLDERS = Object.freeze(['supabase/migrations', 'db/migrations'] as const);

/** Whether a project path is a migration file (`supabase/migrations/001_todos.sql`). */
export function isMigrationPath(path: string): boolean {
  const clean = path.replace(/^\.?\/+/, '');
  return MIGRATION_FOLDERS.some((folder) => clean.startsWith(`${folder}/`) && clean.endsWith('.sql'));
}
