// The tools a configured model gets when its project has a database (docs/databases.md "The
// assistant and the database"). add_migration has no `execute`: like the file tools, its call
// comes back to us and becomes a write_file of the next numbered migration. sample_rows does
// execute, during the task: the model reads a few rows, then goes on writing code (a few steps).
import { MIGRATION_NAME, SAMPLE_ROWS_DEFAULT, SAMPLE_ROWS_MAX, nextMigrationPath, type AssistantDatabase } from '@kiln/domain';
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';

/** The longest SQL one add_migration may carry (a migration, not a data dump). */
export const MIGRATION_SQL_MAX_CHARS = 50_000;
/** Model steps of a task that may look at rows: enough to sample a table or two and then write. */
export const DATABASE_TASK_STEPS = 5;
/** sample_rows calls answered per task; later ones are told to write the code now. */
export const SAMPLE_CALLS_MAX = 4;

export const DATABASE_TOOL_SCHEMAS = {
  add_migration: z.object({
    name: z.string().regex(MIGRATION_NAME).describe("What the migration does, in [a-z0-9_], e.g. 'create_todos' or 'add_due_date_to_todos'."),
    sql: z
      .string()
      .min(1)
      .max(MIGRATION_SQL_MAX_CHARS)
      .refine((sql) => sql.trim() !== '', 'The SQL is empty.')
      .describe('The whole SQL of the migration (PostgreSQL).'),
  }),
  sample_rows: z.object({
    table: z.string().min(1).max(63).describe('A table of the public schema, as listed under "Tables in public now".'),
    limit: z.number().int().min(1).max(SAMPLE_ROWS_MAX).optional().describe(`How many rows, 1 to ${SAMPLE_ROWS_MAX} (default ${SAMPLE_ROWS_DEFAULT}).`),
  }),
} as const;

export const DATABASE_TOOL_ORDER = ['add_migration', 'sample_rows'] as const;

type SampleAnswer = { readonly table: string; readonly rows: readonly unknown[] } | { readonly error: string };

/** What sample_rows tells the model: the rows, or why there are none (it never throws: the task goes on). */
async function answerSample(database: AssistantDatabase, table: string, limit: number | undefined): Promise<SampleAnswer> {
  try {
    const rows = await database.readSample!(table, limit ?? SAMPLE_ROWS_DEFAULT);
    if (rows === null) {
      const names = database.tables.map((t) => t.name).join(', ') || 'none';
      return { error: `There is no table "${table.slice(0, 63)}" in public (tables: ${names}). A new table comes with add_migration.` };
    }
    return { table, rows };
  } catch {
    return { error: 'The database could not be read just now: go on without the sample.' };
  }
}

/**
 * The database tools for a task: none without a database; add_migration with one; sample_rows
 * too when the turn can read rows (its calls are counted per task: make the tools per task).
 */
export function databaseTools(database: AssistantDatabase | undefined): ToolSet {
  if (!database?.connected) return {};
  const tools: ToolSet = {
    add_migration: tool({
      description:
        'Add a SQL migration (a new table, column, index or policy): it is written as supabase/migrations/NNNN_<name>.sql with the next free number and applied after your answer. Never edit a migration that exists.',
      inputSchema: DATABASE_TOOL_SCHEMAS.add_migration,
    }),
  };
  const readSample = database.readSample;
  if (readSample === undefined) return tools;
  let calls = 0;
  tools['sample_rows'] = tool({
    description: `Look at up to ${SAMPLE_ROWS_MAX} rows of a table of public before writing code that reads it (long values are cut, secret-looking columns hidden). Call it before your file changes, then continue.`,
    inputSchema: DATABASE_TOOL_SCHEMAS.sample_rows,
    execute: async ({ table, limit }): Promise<SampleAnswer> => {
      calls += 1;
      if (calls > SAMPLE_CALLS_MAX) return { error: 'Enough samples for this task: write the code now.' };
      return answerSample(database, table, limit);
    },
  });
  return tools;
}

/** The write_file an add_migration call stands for, or null when its input is not valid. */
export function migrationWrite(input: unknown, paths: readonly string[]): { readonly path: string; readonly content: string } | null {
  const parsed = DATABASE_TOOL_SCHEMAS.add_migration.safeParse(input);
  if (!parsed.success) return null;
  return { path: nextMigrationPath(paths, parsed.data.name), content: parsed.data.sql.endsWith('\n') ? parsed.data.sql : `${parsed.data.sql}\n` };
}
