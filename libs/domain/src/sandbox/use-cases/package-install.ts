import type { PackageCommand } from '../package-command.js';
import { changePackageJson, type PackageJsonChange } from '../package-manifest.js';
import type { CommandResult, SandboxCommands } from '../sandbox-commands.port.js';
import type { SandboxDependencies } from '../sandbox-dependencies.port.js';
import type { SandboxFiles } from '../sandbox-files.port.js';
import { isSandboxMissing } from '../sandbox-missing.js';

/** What a terminal package install needs of the host. */
export type PackageInstallHost = Pick<SandboxFiles, 'readFile' | 'writeFile'> & SandboxDependencies;
/** The host RunProjectCommand takes: commands, and the install path for package commands. */
export type ProjectCommandHost = SandboxCommands & PackageInstallHost;

const PACKAGE_JSON = 'package.json';

/** A command's output as it is told: streamed (when someone listens) and kept for the result. */
class Told {
  private stdout = '';
  private stderr = '';
  constructor(private readonly listener?: (stream: 'stdout' | 'stderr', text: string) => void) {}

  line(text: string): void {
    this.say('stdout', text);
  }

  error(text: string): void {
    this.say('stderr', text);
  }

  result(exitCode: number): CommandResult {
    return { exitCode, stdout: this.stdout, stderr: this.stderr, timedOut: false, outputTruncated: false };
  }

  private say(stream: 'stdout' | 'stderr', text: string): void {
    const line = `${text}\n`;
    if (stream === 'stdout') this.stdout += line;
    else this.stderr += line;
    try {
      this.listener?.(stream, line);
    } catch {
      // a listener's failure is its own
    }
  }
}

function describe(change: PackageJsonChange): string {
  if (change.kind === 'remove') return `Removing ${change.names.join(', ')} from package.json`;
  const list = change.packages.map((p) => `${p.name}@${p.version}`).join(', ');
  return `Adding ${list} to package.json (${change.section})`;
}

/**
 * A terminal line that installs, adds or removes packages (classifyPackageCommand), done the way
 * the assistant's add_dependency is: package.json's dependencies are changed (validated specs
 * only), then the host installs package.json's set into its shared cache and re-points
 * node_modules (SandboxDependencies). node_modules itself is never touched by a command. An
 * install that fails puts package.json back as it was, so the project keeps working on its
 * previous packages. The install has its own time limit (the host's), not the command's 30 s;
 * it is not interruptible (the shared install may serve other projects). A refused line says
 * what to do instead and changes nothing.
 */
export async function runPackageCommand(
  host: PackageInstallHost,
  projectId: string,
  command: Exclude<PackageCommand, { readonly kind: 'other' }>,
  workingDir: string,
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void,
): Promise<CommandResult> {
  const told = new Told(onOutput);
  if (command.kind === 'refused') {
    told.error(command.message);
    return told.result(1);
  }
  if (workingDir !== '.') {
    told.error(`Packages are installed for the whole project: run \`${command.manager} …\` from the project root, not from ${workingDir}.`);
    return told.result(1);
  }

  let previous: string | null = null;
  if (command.kind !== 'install') {
    const change: PackageJsonChange = command.kind === 'add' ? { kind: 'add', packages: command.packages, section: command.section } : { kind: 'remove', names: command.names };
    let text: string;
    try {
      text = await host.readFile(projectId, PACKAGE_JSON);
    } catch (error) {
      if (isSandboxMissing(error)) throw error;
      told.error('The project has no readable package.json, so no packages can be added or removed.');
      return told.result(1);
    }
    const edit = changePackageJson(text, change);
    if (!edit.ok) {
      told.error(`${edit.error.message} Nothing was changed.`);
      return told.result(1);
    }
    for (const note of edit.value.notes) told.line(note);
    if (edit.value.changed) {
      told.line(describe(change));
      await host.writeFile(projectId, PACKAGE_JSON, edit.value.text);
      previous = text;
    }
  }

  const putBack = async () => {
    if (previous !== null) await host.writeFile(projectId, PACKAGE_JSON, previous);
  };
  let installed;
  try {
    installed = await host.installDependencies(projectId, { onProgress: (line) => told.line(line) });
  } catch (error) {
    await putBack().catch(() => undefined);
    throw error;
  }
  switch (installed.kind) {
    case 'installed':
      told.line('Done: node_modules has the packages in package.json.');
      return told.result(0);
    case 'up-to-date':
      told.line('Up to date: node_modules already has the packages in package.json.');
      return told.result(0);
    case 'not-managed':
      told.line(installed.message);
      return told.result(0);
    case 'failed':
      await putBack();
      told.error(installed.message);
      if (previous !== null) told.error('package.json was put back as it was; the project keeps its previous packages.');
      return told.result(1);
  }
}
