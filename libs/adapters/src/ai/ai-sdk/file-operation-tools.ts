// The edit protocol as tools: one tool per FileOperation, with zod schemas the AI SDK turns into
// the provider's JSON Schema. The tools have no `execute`: calls come back to us as file
// operations, validated (parseFileOperation, validateOperation) before anything is applied.
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';

const path = z.string().min(1).describe("Project-relative path, e.g. 'src/components/Faq.tsx'. Never inside node_modules, .git or src/.kiln.");

export const FILE_OPERATION_SCHEMAS = {
  write_file: z.object({ path, content: z.string().describe('The whole new text of the file.') }),
  edit_file: z.object({
    path,
    search: z.string().min(1).describe('Text copied exactly from the current file (whitespace included); it must occur exactly once.'),
    replace: z.string().describe('The text that replaces it.'),
  }),
  delete_file: z.object({ path }),
  rename_file: z.object({ from: path, to: path }),
  add_dependency: z.object({
    name: z.string().min(1).describe("The npm package name, e.g. 'lucide-react'."),
    version: z.string().min(1).describe("An npm version range such as '^1.2.0', or 'latest'."),
    dev: z.boolean().optional().describe('True for a devDependency.'),
  }),
  run_command: z.object({ command: z.string().min(1).describe('One shell line run in the project folder, e.g. "npm run lint".') }),
} as const;

const DESCRIPTIONS: Readonly<Record<keyof typeof FILE_OPERATION_SCHEMAS, string>> = {
  write_file: 'Create a file, or replace a whole file. Use it for new files, for large rewrites, and whenever you are asked for the whole file.',
  edit_file:
    'Change part of an existing file: `search` is replaced by `replace`. `search` must be copied exactly from the current file and occur exactly once; include a few surrounding lines to make it unique.',
  delete_file: 'Delete a file.',
  rename_file: 'Rename or move a file.',
  add_dependency: 'Add an npm package to package.json (it is installed after your answer).',
  run_command: 'Run a shell command in the project after the files are written (for example a code generator). Not for installing packages.',
};

/** The order tools are sent in (the SDK sorts them alphabetically otherwise): the cached one last. */
export const FILE_OPERATION_TOOL_ORDER = ['write_file', 'edit_file', 'delete_file', 'rename_file', 'add_dependency', 'run_command'] as const;

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' as const } } };

/**
 * The six file-operation tools. With `cache`, the last tool carries Anthropic's ephemeral cache
 * control, so the tool definitions (which come first in the prompt) are cached with the system prompt.
 */
export function fileOperationTools(cache: boolean): ToolSet {
  const s = FILE_OPERATION_SCHEMAS;
  const d = DESCRIPTIONS;
  return {
    write_file: tool({ description: d.write_file, inputSchema: s.write_file }),
    edit_file: tool({ description: d.edit_file, inputSchema: s.edit_file }),
    delete_file: tool({ description: d.delete_file, inputSchema: s.delete_file }),
    rename_file: tool({ description: d.rename_file, inputSchema: s.rename_file }),
    add_dependency: tool({ description: d.add_dependency, inputSchema: s.add_dependency }),
    // The last tool carries the cache breakpoint: Anthropic caches everything up to it.
    run_command: tool({ description: d.run_command, inputSchema: s.run_command, ...(cache ? { providerOptions: EPHEMERAL } : {}) }),
  };
}

export const PLAN_SCHEMA = z.object({
  kind: z.enum(['build', 'edit']).describe("'build' for a new app, 'edit' for a change to the current one."),
  modules: z
    .array(
      z.object({
        title: z.string().min(1),
        description: z.string(),
        tasks: z.array(z.object({ title: z.string().min(1), description: z.string() })).min(1),
      }),
    )
    .min(1),
});

export function planTool(cache: boolean): ToolSet {
  return {
    submit_plan: tool({
      description: 'Submit the plan: modules of work, each with 1 to 4 tasks. Every task is run separately and should leave the app working.',
      inputSchema: PLAN_SCHEMA,
      ...(cache ? { providerOptions: EPHEMERAL } : {}),
    }),
  };
}

export const CACHE_EPHEMERAL = EPHEMERAL;
