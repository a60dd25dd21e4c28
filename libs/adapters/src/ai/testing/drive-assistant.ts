// Test helpers: run an assistant the way the builder's turn will (plan, then each task, applying
// the operations after each), and type-check and build a project for real.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { applyOperations, type AiAssistant, type AiMessage, type AiPlan, type AssistantEvent, type FileOperation } from '@kiln/domain';

const run = promisify(execFile);

export interface DriveResult {
  readonly files: ReadonlyMap<string, string>;
  readonly plan: AiPlan;
  readonly operations: readonly FileOperation[];
  readonly text: string;
  readonly events: readonly AssistantEvent[];
}

export async function drive(assistant: AiAssistant, prompt: string, start: ReadonlyMap<string, string>, history: readonly AiMessage[] = []): Promise<DriveResult> {
  let files = start;
  const toInput = () => [...files].map(([p, content]) => ({ path: p, content }));
  let plan: AiPlan | null = null;
  for await (const event of assistant.plan({ prompt, tree: [...files.keys()], files: toInput(), history })) {
    if (event.type === 'error') throw new Error(event.error.message);
    if (event.type === 'done') plan = event.plan;
  }
  if (plan === null) throw new Error('plan ended without done');
  const operations: FileOperation[] = [];
  const events: AssistantEvent[] = [];
  let text = '';
  for (const task of plan.tasks) {
    const batch: FileOperation[] = [];
    for await (const event of assistant.runTask({ prompt, task, plan, tree: [...files.keys()], files: toInput(), history })) {
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

function findPackage(root: string, name: string): string {
  for (const candidate of [path.join(root, 'node_modules', name), path.join(root, 'apps/web/node_modules', name)]) {
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

/**
 * A folder of projects that share one node_modules: the workspace's packages, plus vite and
 * @vitejs/plugin-react wherever npm put them.
 */
export class BuildBench {
  readonly dir: string;
  private readonly nodeModules: string;
  private readonly vite: string;
  private readonly sourceFiles = new Map<string, ts.SourceFile>();
  private readonly formatHost: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => this.dir,
    getNewLine: () => '\n',
  };

  constructor() {
    const root = repoRoot();
    this.dir = mkdtempSync(path.join(tmpdir(), 'kiln-ai-builds-'));
    this.nodeModules = path.join(this.dir, 'deps', 'node_modules');
    mkdirSync(this.nodeModules, { recursive: true });
    // The workspace's packages, then the web app's own (vite, @vitejs/plugin-react,
    // @tailwindcss/vite live there), merged scope by scope.
    for (const source of [path.join(root, 'node_modules'), path.join(root, 'apps/web/node_modules')]) {
      if (!existsSync(source)) continue;
      for (const entry of readdirSync(source)) {
        if (entry.startsWith('.')) continue;
        const target = path.join(this.nodeModules, entry);
        if (entry.startsWith('@')) {
          mkdirSync(target, { recursive: true });
          for (const pkg of readdirSync(path.join(source, entry))) {
            rmSync(path.join(target, pkg), { force: true });
            symlinkSync(path.join(source, entry, pkg), path.join(target, pkg));
          }
        } else {
          rmSync(target, { force: true });
          symlinkSync(path.join(source, entry), target);
        }
      }
    }
    this.vite = path.join(findPackage(root, 'vite'), 'bin', 'vite.js');
  }

  write(name: string, files: ReadonlyMap<string, string>): string {
    const dir = path.join(this.dir, name);
    for (const [file, content] of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    symlinkSync(this.nodeModules, path.join(dir, 'node_modules'));
    return dir;
  }

  /**
   * Type-checks one project as `tsc --noEmit -p <dir>` would (its own tsconfig.json, the same
   * TypeScript), in this process: parsed library and node_modules declarations are shared
   * between projects, which makes checking many small projects fast.
   */
  typeCheck(dir: string): string {
    const configPath = path.join(dir, 'tsconfig.json');
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.error) return ts.formatDiagnostics([read.error], this.formatHost);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, configPath);
    const host = ts.createCompilerHost(parsed.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const shared = fileName.includes('/node_modules/');
      const key = `${fileName}|${typeof languageVersion === 'object' ? `${languageVersion.languageVersion}:${languageVersion.impliedNodeFormat}` : languageVersion}`;
      const hit = shared ? this.sourceFiles.get(key) : undefined;
      if (hit) return hit;
      const file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (shared && file) this.sourceFiles.set(key, file);
      return file;
    };
    if (parsed.fileNames.length === 0) return `tsc found no files to check in ${dir}`;
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, configFileParsingDiagnostics: parsed.errors });
    const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
    return diagnostics.length === 0 ? '' : `tsc found errors in ${dir}:\n${ts.formatDiagnostics(diagnostics, this.formatHost)}`;
  }

  /** Builds one project with the Vite CLI (`vite build`); resolves with the failure, or ''. */
  async viteBuild(dir: string): Promise<string> {
    try {
      await run(process.execPath, [this.vite, 'build', '--logLevel', 'error'], { cwd: dir, timeout: 120_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      return `vite build failed in ${dir}:\n${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    return existsSync(path.join(dir, 'dist', 'index.html')) ? '' : `vite build made no dist/index.html in ${dir}`;
  }

  /**
   * Type-checks every project (here) while Vite builds run in up to `parallel` child processes;
   * the failures, in project order.
   */
  async checkAll(dirs: readonly string[], parallel = 2): Promise<string[]> {
    const failures: string[][] = dirs.map(() => []);
    const running = new Set<Promise<void>>();
    for (const [i, dir] of dirs.entries()) {
      const typeErrors = this.typeCheck(dir);
      if (typeErrors) (failures[i] as string[]).push(typeErrors);
      while (running.size >= parallel) await Promise.race(running);
      const build: Promise<void> = this.viteBuild(dir).then((failure) => {
        if (failure) (failures[i] as string[]).push(failure);
        running.delete(build);
      });
      running.add(build);
      // Let finished builds report before the next synchronous type-check.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(running);
    return failures.flat();
  }

  /** Removes the projects, unless KEEP_AI_BUILDS is set (to look at them). */
  dispose(): void {
    if (process.env['KEEP_AI_BUILDS']) return;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
