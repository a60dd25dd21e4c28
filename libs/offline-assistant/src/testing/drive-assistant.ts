// Test helpers (@kiln/offline-assistant/testing): run an assistant the way the builder's turn will
// (plan, then each task, applying the operations after each), and read the starter template's
// files. The generator writes apps for that template, which the sandbox adapter owns
// (libs/adapters/src/sandbox/starter): it is read here as files, never imported as code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { applyOperations, type AiAssistant, type AiMessage, type AiPlan, type AssistantDatabase, type AssistantEvent, type FileOperation } from '@kiln/domain';

export interface DriveResult {
  readonly files: ReadonlyMap<string, string>;
  readonly plan: AiPlan;
  readonly operations: readonly FileOperation[];
  readonly text: string;
  readonly events: readonly AssistantEvent[];
}

/** `database`: the project's database as a turn would tell it (absent: none). */
export async function drive(assistant: AiAssistant, prompt: string, start: ReadonlyMap<string, string>, history: readonly AiMessage[] = [], database?: AssistantDatabase): Promise<DriveResult> {
  let files = start;
  const db = database ? { database } : {};
  const toInput = () => [...files].map(([p, content]) => ({ path: p, content }));
  let plan: AiPlan | null = null;
  for await (const event of assistant.plan({ prompt, tree: [...files.keys()], files: toInput(), history, ...db })) {
    if (event.type === 'error') throw new Error(event.error.message);
    if (event.type === 'done') plan = event.plan;
  }
  if (plan === null) throw new Error('plan ended without done');
  const operations: FileOperation[] = [];
  const events: AssistantEvent[] = [];
  let text = '';
  for (const task of plan.tasks) {
    const batch: FileOperation[] = [];
    for await (const event of assistant.runTask({ prompt, task, plan, tree: [...files.keys()], files: toInput(), history, ...db })) {
      events.push(event);
      if (event.type === 'operation') batch.push(event.operation);
      if (event.type === 'text') text += event.text;
      if (event.type === 'error') throw new Error(event.error.message);
    }
    const applied = applyOperations(files, batch);
    if (!applied.ok) throw new Error(`task ${task.id} did not apply: ${applied.error.message}`);
    files = applied.value.files;
    operations.push(...batch);
  }
  return { files, plan, operations, text, events };
}

/** The repository root (where libs/adapters lives), found from the working directory. */
export function repoRoot(): string {
  let dir = process.cwd();
  while (!existsSync(path.join(dir, 'libs/adapters/src/sandbox/starter/package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

export function readTree(dir: string, base = dir, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) readTree(full, base, out);
    else out.set(path.relative(base, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
  }
  return out;
}

export function starterFiles(): Map<string, string> {
  return readTree(path.join(repoRoot(), 'libs/adapters/src/sandbox/starter'));
}
