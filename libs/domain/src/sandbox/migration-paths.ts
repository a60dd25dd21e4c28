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

/** The name part of a migration the assistant adds (add_migration): `0003_<name>.sql`. */
export const MIGRATION_NAME = /^[a-z0-9_]{1,60}$/;

/**
 * The path of a new migration `name` among the project's `paths`: in the project's migration
 * folder (the first of MIGRATION_FOLDERS it has, else supabase/migrations), numbered one past
 * the highest number there, four digits (`0001_todos.sql` first, as the offline assistant writes it).
 */
export function nextMigrationPath(paths: readonly string[], name: string): string {
  const clean = paths.map((p) => p.replace(/^\.?\/+/, ''));
  const folder = MIGRATION_FOLDERS.find((f) => clean.some((p) => p.startsWith(`${f}/`))) ?? MIGRATION_FOLDERS[0];
  let highest = 0;
  for (const path of clean) {
    if (!path.startsWith(`${folder}/`) || !isMigrationPath(path)) continue;
    const number = /^(\d+)/.exec(path.slice(folder.length + 1))?.[1];
    if (number !== undefined) highest = Math.max(highest, Number(number));
  }
  return `${folder}/${String(highest + 1).padStart(4, '0')}_${name}.sql`;
}
