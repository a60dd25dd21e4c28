// What the model is told: standing instructions (cached) and the per-task message.
import type { AssistantDatabase, PlanInput, TaskInput } from '@kiln/domain';

export const TASK_SYSTEM_PROMPT = `You are Kiln, an expert React and TypeScript engineer who builds and edits web apps for people who may not code.

The project is a Vite + React 19 + TypeScript app: index.html loads src/main.tsx, which renders src/App.tsx. Projects from the starter template style with Tailwind CSS and theme variables (shadcn names such as --background, --foreground, --primary) in src/index.css; keep to what the project already uses. Write accessible, responsive code (phones at 375 px to desktops at 1280 px) with real, specific copy, never lorem ipsum. The code must type-check under "strict" and build with Vite.

Answer with tool calls, one per change:
- edit_file for a focused change to an existing file: copy \`search\` exactly from the file as you were given it, whitespace included, with enough surrounding lines that it occurs exactly once.
- write_file for new files, for rewrites of most of a file, and whenever you are told a file must be sent whole.
- delete_file, rename_file, add_dependency (npm name and version range) and run_command when needed.
Never touch node_modules, .git, or src/.kiln. Only change what the task needs. After the tool calls, say in one or two plain sentences what you changed.`;

export const PLAN_SYSTEM_PROMPT = `You are Kiln's planner. Split the person's request into modules of work, each with 1 to 4 small tasks that are done one after another by an engineer who sees the current files. Every task must leave the app building. A small change is one module with one task. Call submit_plan exactly once.`;

export const SUMMARIZE_SYSTEM_PROMPT = `Summarize this conversation between a person and Kiln (an AI app builder) so the work can continue without it: what the app is, the decisions made, what was changed, and what is still open. Be brief and concrete.`;

export const ENHANCE_SYSTEM_PROMPT = `Rewrite the person's request for an app as a clear, complete prompt for an AI app builder: the kind of app, its name, its pages or sections, its main features, its look (colours, light or dark), and quality bars (responsive, accessible, real copy). Keep everything they asked for and invent nothing that contradicts it. Answer with the prompt only.`;

/** Added to the system prompt of a completion that must answer in JSON. */
export const JSON_ANSWER_INSTRUCTION = `Answer with one JSON object only: no prose before or after it, no code fences.`;

function fence(path: string, content: string): string {
  const longest = Math.max(2, ...(content.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${path}\n${content}\n${ticks}`;
}

/** A name from the database, on one line and of bounded length (the schema is the project's, not ours). */
const oneLine = (text: string, max = 120): string => {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * What the model is told of the project's database (docs/databases.md "The assistant and the
 * database"): how generated code reaches it, how tables are added, and the tables there are now.
 */
export function databaseSection(database: AssistantDatabase | undefined): string | null {
  if (!database?.connected) return null;
  const tables =
    database.tables.length === 0
      ? '(no tables yet)'
      : database.tables
          .map((t) => `- ${oneLine(t.name)}${t.rlsEnabled ? '' : ' (row-level security OFF)'}: ${t.columns.map((c) => `${oneLine(c.name)} ${oneLine(c.type, 60)}${c.nullable ? '' : ' not null'}`).join(', ') || '(no columns)'}`)
          .join('\n');
  return [
    'Database: this project has a PostgreSQL database behind a Supabase-compatible data API. When the app needs stored data or sign-in, use it:',
    '- the client: @supabase/supabase-js (add_dependency "@supabase/supabase-js" "2.109.0" when package.json lacks it), created once in src/lib/supabase.ts from import.meta.env.VITE_SUPABASE_URL and import.meta.env.VITE_SUPABASE_ANON_KEY (already in .env.local);',
    '- sign-in with supabase.auth (signUp, signInWithPassword, signOut, onAuthStateChange); data with supabase.from(table) select/insert/update/delete, with loading and error states;',
    "- a new table or column: a SQL migration supabase/migrations/NNNN_<name>.sql (the next number), with user_id uuid not null default auth.uid(), `alter table … enable row level security`, and owner policies `to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid())` for select, insert, update and delete.",
    `Tables in public now:\n${tables}`,
  ].join('\n');
}

/** The database tools of a task (database-tools.ts): planning has none. */
function databaseToolsLine(database: AssistantDatabase | undefined): string {
  const add = 'Database tools: add_migration (name, sql) writes the next numbered migration for you.';
  return database?.readSample ? `${add} sample_rows (table, limit 1–5) shows a few rows of a table: call it first when the code depends on what the data looks like, then make your changes.` : add;
}

export function planMessage(input: PlanInput): string {
  return [
    `Request: ${input.prompt}`,
    databaseSection(input.database),
    `Project files:\n${input.tree.join('\n') || '(none)'}`,
    ...input.files.map((f) => fence(f.path, f.content)),
  ]
    .filter((part): part is string => part !== null)
    .join('\n\n');
}

export function taskMessage(input: TaskInput): string {
  const parts: string[] = [`Request: ${input.prompt}`];
  if (input.plan && input.task) {
    parts.push(`Plan:\n${input.plan.tasks.map((t, i) => `${i + 1}. ${t.title}${t.id === input.task?.id ? '  ← now' : ''}`).join('\n')}`);
  }
  if (input.task) parts.push(`Your task now: ${input.task.title}\n${input.task.description}`);
  const database = databaseSection(input.database);
  if (database !== null) parts.push(database, databaseToolsLine(input.database));
  parts.push(`Project files:\n${input.tree.join('\n') || '(none)'}`);
  if (input.files.length > 0) parts.push(`Current contents:\n\n${input.files.map((f) => fence(f.path, f.content)).join('\n\n')}`);
  if (input.previousErrors && input.previousErrors.length > 0) {
    parts.push(`The last change left these errors; fix them:\n${input.previousErrors.map((e) => `- ${e.file}:${e.line}:${e.column} ${e.message}`).join('\n')}`);
  }
  if (input.needFullFile) {
    parts.push(`Your edit of ${input.needFullFile} did not apply: its search text was not found exactly once. Send the whole file ${input.needFullFile} with write_file.`);
  }
  return parts.join('\n\n');
}
