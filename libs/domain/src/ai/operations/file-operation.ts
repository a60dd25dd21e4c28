import { isValidPackageName, isValidVersionRange } from '../../sandbox/package-spec.js';
import { AI_SUPPORT_DIR } from '../../sandbox/code-error.js';
import type { DomainError } from '../../shared/domain-error.js';
import { err, ok, type Result } from '../../shared/result.js';
import { resolveSandboxPath } from '../../sandbox/sandbox-path.js';

/**
 * What an assistant may do to a project: the structured answer of a model (one tool per kind),
 * validated before it is applied. Paths are project-relative, as the model writes them.
 */
export type FileOperation = WriteFile | EditFile | DeleteFile | RenameFile | AddDependency | RunCommand;

/** Creates or replaces a file. */
export interface WriteFile {
  readonly type: 'write_file';
  readonly path: string;
  readonly content: string;
}

/** Replaces `search` by `replace` in a file; `search` must occur exactly once. */
export interface EditFile {
  readonly type: 'edit_file';
  readonly path: string;
  readonly search: string;
  readonly replace: string;
}

export interface DeleteFile {
  readonly type: 'delete_file';
  readonly path: string;
}

export interface RenameFile {
  readonly type: 'rename_file';
  readonly from: string;
  readonly to: string;
}

/** Adds (or changes) a package in package.json; the caller installs it afterwards. */
export interface AddDependency {
  readonly type: 'add_dependency';
  readonly name: string;
  /** An npm version range: '^1.2.3', '~2.0', '>=1 <3', '1.x', '*', or a dist-tag such as 'latest'. */
  readonly version: string;
  readonly dev?: boolean;
}

/** A shell line for the sandbox, run by the caller after the files are written. */
export interface RunCommand {
  readonly type: 'run_command';
  readonly command: string;
}

export type FileOperationType = FileOperation['type'];

export const FILE_OPERATION_TYPES: readonly FileOperationType[] = Object.freeze([
  'write_file',
  'edit_file',
  'delete_file',
  'rename_file',
  'add_dependency',
  'run_command',
]);

/** Largest file an assistant may write, and largest search or replace text (characters). */
export const MAX_FILE_CONTENT_LENGTH = 512_000;
export const MAX_COMMAND_LENGTH = 2_000;
/** Most operations one answer may carry. */
export const MAX_OPERATIONS_PER_BATCH = 200;

/**
 * Folders an assistant never writes into: installed packages, git's data and Kiln's own support
 * files (src/.kiln). A segment match anywhere for node_modules and .git; src/.kiln from the root.
 */
export const PROTECTED_SEGMENTS = Object.freeze(['node_modules', '.git'] as const);
export const PROTECTED_PREFIXES = Object.freeze([AI_SUPPORT_DIR] as const);

export type OperationRefusalReason =
  | 'unknown-type'
  | 'malformed'
  | 'path-outside'
  | 'path-is-root'
  | 'protected-path'
  | 'too-large'
  | 'empty-search'
  | 'same-path'
  | 'invalid-package-name'
  | 'invalid-version'
  | 'empty-command'
  | 'command-too-long'
  | 'command-control-characters'
  | 'too-many-operations';

/** The operation is not acceptable as written (never applied). */
export type OperationRefused = DomainError<'AI.OPERATION_REFUSED'> & {
  readonly reason: OperationRefusalReason;
  /** The path or package the refusal is about, when there is one. */
  readonly subject?: string;
};

export const operationRefused = (reason: OperationRefusalReason, message: string, subject?: string): OperationRefused =>
  subject === undefined ? { code: 'AI.OPERATION_REFUSED', reason, message } : { code: 'AI.OPERATION_REFUSED', reason, message, subject };

// ---------------------------------------------------------------------------------------------
// Parsing: an untrusted tool call (name + JSON input) into a FileOperation.
// ---------------------------------------------------------------------------------------------

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function stringField(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads a tool call as a FileOperation: the tool name is the operation type and the input holds
 * its fields. Only the shape is checked here; validateOperation checks the values.
 */
export function parseFileOperation(toolName: string, input: unknown): Result<FileOperation, OperationRefused> {
  if (!isRecord(input)) return err(operationRefused('malformed', `The ${toolName} call has no input object.`));
  const missing = (field: string) => err(operationRefused('malformed', `The ${toolName} call needs a string "${field}".`));
  switch (toolName) {
    case 'write_file': {
      const path = stringField(input, 'path');
      const content = stringField(input, 'content');
      if (path === undefined) return missing('path');
      if (content === undefined) return missing('content');
      return ok({ type: 'write_file', path, content });
    }
    case 'edit_file': {
      const path = stringField(input, 'path');
      const search = stringField(input, 'search');
      const replace = stringField(input, 'replace');
      if (path === undefined) return missing('path');
      if (search === undefined) return missing('search');
      if (replace === undefined) return missing('replace');
      return ok({ type: 'edit_file', path, search, replace });
    }
    case 'delete_file': {
      const path = stringField(input, 'path');
      if (path === undefined) return missing('path');
      return ok({ type: 'delete_file', path });
    }
    case 'rename_file': {
      const from = stringField(input, 'from');
      const to = stringField(input, 'to');
      if (from === undefined) return missing('from');
      if (to === undefined) return missing('to');
      return ok({ type: 'rename_file', from, to });
    }
    case 'add_dependency': {
      const name = stringField(input, 'name');
      const version = stringField(input, 'version') ?? 'latest';
      if (name === undefined) return missing('name');
      const dev = input['dev'];
      if (dev !== undefined && dev !== null && typeof dev !== 'boolean') {
        return err(operationRefused('malformed', 'The add_dependency call has a "dev" that is not true or false.'));
      }
      return ok(dev === true ? { type: 'add_dependency', name, version, dev: true } : { type: 'add_dependency', name, version });
    }
    case 'run_command': {
      const command = stringField(input, 'command');
      if (command === undefined) return missing('command');
      return ok({ type: 'run_command', command });
    }
    default:
      return err(operationRefused('unknown-type', `There is no operation called ${JSON.stringify(toolName)}.`, toolName));
  }
}

// ---------------------------------------------------------------------------------------------
// Validation: values of one operation.
// ---------------------------------------------------------------------------------------------

/**
 * Resolves a path an assistant wants to write (or read for an edit): inside the project, not the
 * root itself, and not inside a protected folder. Returns the normalised path.
 */
export function resolveOperationPath(requested: string): Result<string, OperationRefused> {
  const resolved = resolveSandboxPath(requested);
  if (!resolved.ok) {
    if (resolved.error.code === 'SANDBOX.PATH_TOO_LONG') return err(operationRefused('path-outside', `${resolved.error.message}.`, resolved.error.path));
    return err(operationRefused('path-outside', `The path ${JSON.stringify(requested)} is outside the project.`, requested));
  }
  const path: string = resolved.value;
  if (path === '.') return err(operationRefused('path-is-root', 'An operation needs a file path, not the project folder.', requested));
  const segments = path.split('/');
  const protectedSegment = segments.find((segment) => (PROTECTED_SEGMENTS as readonly string[]).includes(segment));
  if (protectedSegment !== undefined) {
    return err(operationRefused('protected-path', `Files inside ${protectedSegment} are not the assistant's to change.`, path));
  }
  if (PROTECTED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return err(operationRefused('protected-path', `Files inside ${AI_SUPPORT_DIR} belong to Kiln.`, path));
  }
  return ok(path);
}

// Control characters other than tab: a command is one line.
const COMMAND_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Checks one operation's values and returns it with its paths normalised. */
export function validateOperation(operation: FileOperation): Result<FileOperation, OperationRefused> {
  switch (operation.type) {
    case 'write_file': {
      const path = resolveOperationPath(operation.path);
      if (!path.ok) return path;
      if (operation.content.length > MAX_FILE_CONTENT_LENGTH) {
        return err(operationRefused('too-large', `The content for ${path.value} is larger than ${MAX_FILE_CONTENT_LENGTH} characters.`, path.value));
      }
      return ok({ type: 'write_file', path: path.value, content: operation.content });
    }
    case 'edit_file': {
      const path = resolveOperationPath(operation.path);
      if (!path.ok) return path;
      if (operation.search.length === 0) {
        return err(operationRefused('empty-search', `The edit of ${path.value} has nothing to search for.`, path.value));
      }
      if (operation.search.length > MAX_FILE_CONTENT_LENGTH || operation.replace.length > MAX_FILE_CONTENT_LENGTH) {
        return err(operationRefused('too-large', `The edit of ${path.value} is larger than ${MAX_FILE_CONTENT_LENGTH} characters.`, path.value));
      }
      return ok({ type: 'edit_file', path: path.value, search: operation.search, replace: operation.replace });
    }
    case 'delete_file': {
      const path = resolveOperationPath(operation.path);
      if (!path.ok) return path;
      return ok({ type: 'delete_file', path: path.value });
    }
    case 'rename_file': {
      const from = resolveOperationPath(operation.from);
      if (!from.ok) return from;
      const to = resolveOperationPath(operation.to);
      if (!to.ok) return to;
      if (from.value === to.value) return err(operationRefused('same-path', `Renaming ${from.value} to itself changes nothing.`, from.value));
      return ok({ type: 'rename_file', from: from.value, to: to.value });
    }
    case 'add_dependency': {
      if (!isValidPackageName(operation.name)) {
        return err(operationRefused('invalid-package-name', `${JSON.stringify(operation.name)} is not an npm package name.`, operation.name));
      }
      if (!isValidVersionRange(operation.version)) {
        return err(
          operationRefused('invalid-version', `${JSON.stringify(operation.version)} is not a version range for ${operation.name}.`, operation.name),
        );
      }
      const version = operation.version.trim();
      return ok(operation.dev === true ? { type: 'add_dependency', name: operation.name, version, dev: true } : { type: 'add_dependency', name: operation.name, version });
    }
    case 'run_command': {
      const command = operation.command.trim();
      if (command.length === 0) return err(operationRefused('empty-command', 'The command is empty.'));
      if (command.length > MAX_COMMAND_LENGTH) return err(operationRefused('command-too-long', `The command is longer than ${MAX_COMMAND_LENGTH} characters.`));
      if (COMMAND_CONTROL.test(command)) return err(operationRefused('command-control-characters', 'A command is a single line without control characters.'));
      return ok({ type: 'run_command', command });
    }
    default:
      return err(operationRefused('unknown-type', 'Unknown operation.'));
  }
}

/** Validates a whole answer; the first refusal wins and carries the operation's index. */
export function validateOperations(operations: readonly FileOperation[]): Result<readonly FileOperation[], OperationRefused & { readonly index: number }> {
  if (operations.length > MAX_OPERATIONS_PER_BATCH) {
    return err({ ...operationRefused('too-many-operations', `An answer may carry at most ${MAX_OPERATIONS_PER_BATCH} operations.`), index: MAX_OPERATIONS_PER_BATCH });
  }
  const valid: FileOperation[] = [];
  for (const [index, operation] of operations.entries()) {
    const checked = validateOperation(operation);
    if (!checked.ok) return err({ ...checked.error, index });
    valid.push(checked.value);
  }
  return ok(valid);
}

// ---------------------------------------------------------------------------------------------
// Applying: a batch of operations to a project's files, all or nothing.
// ---------------------------------------------------------------------------------------------

/**
 * An edit's search text is missing from the file or occurs more than once: the assistant must
 * answer with the whole file (write_file) instead — the edit is never guessed.
 */
export type NeedsFullFile = DomainError<'AI.NEEDS_FULL_FILE'> & {
  readonly outcome: 'needs_full_file';
  readonly path: string;
  /** How often the search text occurs: 0 (missing) or 2 and more (ambiguous). */
  readonly occurrences: number;
};

/** An edit, delete or rename names a file the project does not have. */
export type OperationFileMissing = DomainError<'AI.FILE_MISSING'> & { readonly path: string };

/** A write or rename would put a file where a folder is, or inside a file, or over another file. */
export type OperationPathConflict = DomainError<'AI.PATH_CONFLICT'> & { readonly path: string };

/** add_dependency needs a package.json that parses as an object. */
export type PackageJsonUnusable = DomainError<'AI.PACKAGE_JSON_UNUSABLE'> & { readonly path: 'package.json' };

export type ApplyOperationError = OperationRefused | NeedsFullFile | OperationFileMissing | OperationPathConflict | PackageJsonUnusable;

/** Why a batch failed, and which operation (0-based) failed it. */
export type ApplyOperationsFailure = ApplyOperationError & { readonly index: number };

export interface FileChange {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
}

export interface AppliedOperations {
  /** The project's files after the batch (a new map; the input is never changed). */
  readonly files: ReadonlyMap<string, string>;
  /** Every path whose state differs from before the batch, in path order. */
  readonly changes: readonly FileChange[];
  /** Dependencies the batch added to package.json: the caller installs them. */
  readonly dependencies: readonly AddDependency[];
  /** Commands to run, in order, once the files are written. */
  readonly commands: readonly string[];
}

export const PACKAGE_JSON_PATH = 'package.json';

/** How often `needle` occurs in `haystack`, overlapping occurrences included. */
export function countOccurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    count += 1;
    at = haystack.indexOf(needle, at + 1);
  }
  return count;
}

export const needsFullFile = (path: string, occurrences: number): NeedsFullFile => ({
  code: 'AI.NEEDS_FULL_FILE',
  outcome: 'needs_full_file',
  path,
  occurrences,
  message:
    occurrences === 0
      ? `The text to replace was not found in ${path}; send the whole file instead.`
      : `The text to replace occurs ${occurrences} times in ${path}; send the whole file instead.`,
});

const fileMissing = (path: string): OperationFileMissing => ({ code: 'AI.FILE_MISSING', path, message: `There is no file ${path}.` });
const pathConflict = (path: string, message: string): OperationPathConflict => ({ code: 'AI.PATH_CONFLICT', path, message });

/** A file at `path` would clash with the folder structure of the other files. */
function conflictAt(files: ReadonlyMap<string, string>, path: string): OperationPathConflict | null {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    const parent = segments.slice(0, i).join('/');
    if (files.has(parent)) return pathConflict(path, `${parent} is a file, so ${path} cannot be written inside it.`);
  }
  const asFolder = `${path}/`;
  for (const existing of files.keys()) {
    if (existing.startsWith(asFolder)) return pathConflict(path, `${path} is a folder, so it cannot be written as a file.`);
  }
  return null;
}

/** Replaces the single occurrence of `search` (the caller checked that there is exactly one). */
export function replaceOnce(content: string, search: string, replace: string): string {
  const at = content.indexOf(search);
  return at === -1 ? content : content.slice(0, at) + replace + content.slice(at + search.length);
}

/** Adds a dependency to package.json's text, keeping the sections' keys sorted as npm does. */
export function addDependencyToPackageJson(text: string, dependency: AddDependency): Result<string, PackageJsonUnusable> {
  const unusable: PackageJsonUnusable = { code: 'AI.PACKAGE_JSON_UNUSABLE', path: 'package.json', message: 'package.json is not a JSON object.' };
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return err(unusable);
  }
  if (!isRecord(manifest)) return err(unusable);
  const section = dependency.dev === true ? 'devDependencies' : 'dependencies';
  const other = dependency.dev === true ? 'dependencies' : 'devDependencies';
  const current = manifest[section];
  if (current !== undefined && !isRecord(current)) return err({ ...unusable, message: `package.json's ${section} is not an object.` });
  const entries = Object.entries({ ...(current ?? {}), [dependency.name]: dependency.version }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const next: Record<string, unknown> = { ...manifest, [section]: Object.fromEntries(entries) };
  // A package lives in one section only.
  const otherSection = manifest[other];
  if (isRecord(otherSection) && dependency.name in otherSection) {
    const { [dependency.name]: _moved, ...rest } = otherSection;
    next[other] = rest;
  }
  return ok(`${JSON.stringify(next, null, 2)}\n`);
}

function applyOne(files: Map<string, string>, operation: FileOperation, applied: { dependencies: AddDependency[]; commands: string[] }): ApplyOperationError | null {
  switch (operation.type) {
    case 'write_file': {
      if (!files.has(operation.path)) {
        const conflict = conflictAt(files, operation.path);
        if (conflict) return conflict;
      }
      files.set(operation.path, operation.content);
      return null;
    }
    case 'edit_file': {
      const content = files.get(operation.path);
      if (content === undefined) return fileMissing(operation.path);
      const occurrences = countOccurrences(content, operation.search);
      if (occurrences !== 1) return needsFullFile(operation.path, occurrences);
      files.set(operation.path, replaceOnce(content, operation.search, operation.replace));
      return null;
    }
    case 'delete_file': {
      if (!files.delete(operation.path)) return fileMissing(operation.path);
      return null;
    }
    case 'rename_file': {
      const content = files.get(operation.from);
      if (content === undefined) return fileMissing(operation.from);
      if (files.has(operation.to)) return pathConflict(operation.to, `${operation.to} already exists.`);
      files.delete(operation.from);
      const conflict = conflictAt(files, operation.to);
      if (conflict) return conflict;
      files.set(operation.to, content);
      return null;
    }
    case 'add_dependency': {
      const manifest = files.get(PACKAGE_JSON_PATH);
      if (manifest === undefined) return { code: 'AI.PACKAGE_JSON_UNUSABLE', path: 'package.json', message: 'The project has no package.json.' };
      const updated = addDependencyToPackageJson(manifest, operation);
      if (!updated.ok) return updated.error;
      files.set(PACKAGE_JSON_PATH, updated.value);
      applied.dependencies.push(operation);
      return null;
    }
    case 'run_command':
      applied.commands.push(operation.command);
      return null;
  }
}

/**
 * Applies a batch to a project's files (path → text), all or nothing: every operation is
 * validated, then applied in order to a copy; the first failure returns with its index and the
 * input map is left as it was. An edit whose search text is missing or ambiguous fails with
 * 'needs_full_file' (AI.NEEDS_FULL_FILE) naming the path.
 */
export function applyOperations(files: ReadonlyMap<string, string>, operations: readonly FileOperation[]): Result<AppliedOperations, ApplyOperationsFailure> {
  const valid = validateOperations(operations);
  if (!valid.ok) return valid;
  const next = new Map(files);
  const applied = { dependencies: [] as AddDependency[], commands: [] as string[] };
  for (const [index, operation] of valid.value.entries()) {
    const failure = applyOne(next, operation, applied);
    if (failure) return err({ ...failure, index });
  }
  const changes: FileChange[] = [];
  const paths = [...new Set([...files.keys(), ...next.keys()])].sort();
  for (const path of paths) {
    const before = files.get(path);
    const after = next.get(path);
    if (before === after) continue;
    changes.push({ path, change: before === undefined ? 'created' : after === undefined ? 'deleted' : 'modified' });
  }
  return ok({ files: next, changes, dependencies: applied.dependencies, commands: applied.commands });
}

/** The path an apply failure asks the assistant to send whole, if it is a needs_full_file outcome. */
export function fullFileRequested(failure: ApplyOperationsFailure): string | null {
  return failure.code === 'AI.NEEDS_FULL_FILE' ? failure.path : null;
}
