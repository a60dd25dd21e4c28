// Which terminal lines are package installs. A project's node_modules is a link into Kiln's shared,
// read-only dependency cache: npm, pnpm, Yarn or Bun run in the project would replace or rewrite
// it. A line that installs, adds or removes packages is recognised here and goes through Kiln's
// own install (package.json, then the shared cache); anything else that would rewrite
// node_modules is refused with the way that works. Pure: the terminal's line in, a decision out.

import type { DependencySection } from './dependency-set.js';
import { isValidPackageName, isValidVersionRange } from './package-spec.js';

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** A package the line asks for: an npm name and a version range or dist-tag ('latest' when none). */
export interface RequestedPackage {
  readonly name: string;
  readonly version: string;
}

export type PackageCommand =
  /** Not a package install: the line runs as a command. */
  | { readonly kind: 'other' }
  /** `npm install`, `npm ci`, `yarn`…: make node_modules what package.json asks for. */
  | { readonly kind: 'install'; readonly manager: PackageManager }
  /** `npm install a b@1 -D`: add (or change) these in package.json's `section`, then install. */
  | { readonly kind: 'add'; readonly manager: PackageManager; readonly packages: readonly RequestedPackage[]; readonly section: DependencySection }
  /** `npm uninstall a`: remove these from package.json, then install. */
  | { readonly kind: 'remove'; readonly manager: PackageManager; readonly names: readonly string[] }
  /** Would rewrite node_modules in a way Kiln does not do; `message` says what to do instead. */
  | { readonly kind: 'refused'; readonly manager: PackageManager; readonly message: string };

/** The supported way, told with every refusal. */
export const SUPPORTED_PACKAGE_COMMANDS =
  "Kiln keeps this project's node_modules in a shared package cache and installs package.json's packages itself. " +
  'To change packages, run `npm install <name>` or `npm install <name>@<version>` (add `-D` for a dev dependency), ' +
  '`npm uninstall <name>`, or a bare `npm install`, each on its own line from the project root — or edit package.json.';

type Action = 'install' | 'add' | 'remove' | 'refuse';

const NPM: Readonly<Record<string, Action>> = {
  ...Object.fromEntries(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add'].map((c) => [c, 'add' as const])),
  ...Object.fromEntries(['ci', 'clean-install', 'ic', 'install-clean', 'isntall-clean'].map((c) => [c, 'install' as const])),
  ...Object.fromEntries(['uninstall', 'unlink', 'remove', 'rm', 'r', 'un'].map((c) => [c, 'remove' as const])),
  ...Object.fromEntries(
    ['update', 'up', 'upgrade', 'udpate', 'dedupe', 'ddp', 'prune', 'rebuild', 'rb', 'link', 'ln', 'install-test', 'it', 'install-ci-test', 'cit', 'shrinkwrap'].map(
      (c) => [c, 'refuse' as const],
    ),
  ),
};
const PNPM: Readonly<Record<string, Action>> = {
  install: 'add',
  i: 'add',
  add: 'add',
  ...Object.fromEntries(['remove', 'rm', 'uninstall', 'un'].map((c) => [c, 'remove' as const])),
  ...Object.fromEntries(['update', 'up', 'upgrade', 'prune', 'rebuild', 'rb', 'link', 'ln', 'unlink', 'dedupe', 'import', 'fetch', 'install-test', 'it'].map((c) => [c, 'refuse' as const])),
};
const YARN: Readonly<Record<string, Action>> = {
  install: 'install',
  add: 'add',
  remove: 'remove',
  ...Object.fromEntries(['upgrade', 'up', 'upgrade-interactive', 'dedupe', 'link', 'unlink', 'import', 'autoclean'].map((c) => [c, 'refuse' as const])),
};
const BUN: Readonly<Record<string, Action>> = {
  install: 'add',
  i: 'add',
  add: 'add',
  a: 'add',
  remove: 'remove',
  rm: 'remove',
  ...Object.fromEntries(['update', 'link', 'unlink'].map((c) => [c, 'refuse' as const])),
};
const ACTIONS: Readonly<Record<PackageManager, Readonly<Record<string, Action>>>> = { npm: NPM, pnpm: PNPM, yarn: YARN, bun: BUN };

const DEV_FLAGS = new Set(['-D', '--save-dev', '--dev']);
const PROD_FLAGS = new Set(['-P', '--save-prod', '--prod', '-S', '--save']);
/** Flags that change nothing Kiln does (output, audit, exactness of a version given in full). */
const HARMLESS_FLAGS = new Set([
  '--no-audit', '--no-fund', '--prefer-offline', '--silent', '-s', '--quiet', '-q', '--verbose', '--no-progress',
  '--legacy-peer-deps', '--ignore-scripts', '-E', '--save-exact', '--exact', '--frozen-lockfile', '--immutable',
  '--no-package-lock', '--no-lockfile', '--pure-lockfile',
]); // prettier-ignore
/** Harmless flags written `--flag=value` or `--flag value`. */
const HARMLESS_WITH_VALUE = new Set(['--loglevel', '--progress', '--fund', '--audit']);

const SHELL_OPERATOR = /^(?:&&|\|\||[;&|<>()]|>>|<<|\n)$/;

/** Shell-like words of a line: quotes and backslashes understood; operators are words of their own. null: unclosed quote. */
function words(line: string): { readonly words: string[]; readonly shell: boolean } | null {
  const out: string[] = [];
  let shell = false;
  let current = '';
  let inWord = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charAt(i);
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end === -1) return null;
      const quoted = line.slice(i + 1, end);
      if (c === '"' && /[$`]/.test(quoted)) shell = true;
      current += quoted;
      inWord = true;
      i = end;
    } else if (c === '\\') {
      current += line.charAt(i + 1);
      inWord = true;
      i += 1;
    } else if (c === ' ' || c === '\t') {
      if (inWord) out.push(current);
      current = '';
      inWord = false;
    } else if (/[;&|<>()\n]/.test(c)) {
      if (inWord) out.push(current);
      const two = line.slice(i, i + 2);
      const op = ['&&', '||', '>>', '<<'].includes(two) ? two : c;
      out.push(op);
      i += op.length - 1;
      current = '';
      inWord = false;
      shell = true;
    } else {
      if (c === '$' || c === '`') shell = true;
      current += c;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return { words: out, shell };
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function managerOf(word: string): PackageManager | null {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base === 'npm' || base === 'pnpm' || base === 'yarn' || base === 'bun' ? base : null;
}

/** The command of one segment (after `VAR=value` prefixes): its manager and the rest, or null. */
function segmentCommand(segment: readonly string[]): { readonly manager: PackageManager; readonly args: readonly string[] } | null {
  let at = 0;
  while (at < segment.length && ENV_ASSIGNMENT.test(segment[at] ?? '')) at += 1;
  const manager = managerOf(segment[at] ?? '');
  return manager === null ? null : { manager, args: segment.slice(at + 1) };
}

/** What a manager's arguments ask for: the subcommand's action (null: not node_modules' business). */
function actionOf(manager: PackageManager, args: readonly string[]): { readonly action: Action; readonly rest: readonly string[]; readonly sub: string } | null {
  const index = args.findIndex((a) => !a.startsWith('-'));
  const sub = index === -1 ? '' : (args[index] ?? '');
  const rest = index === -1 ? args : [...args.slice(0, index), ...args.slice(index + 1)];
  if (sub === '') {
    // A bare `yarn` / `pnpm` / `bun` installs; a bare `npm` prints its help.
    return manager === 'npm' ? null : { action: manager === 'yarn' ? 'install' : 'add', rest, sub: 'install' };
  }
  if (manager === 'npm' && sub === 'audit' && rest.includes('fix')) return { action: 'refuse', rest, sub: 'audit fix' };
  const action = Object.prototype.hasOwnProperty.call(ACTIONS[manager], sub) ? ACTIONS[manager][sub] : undefined;
  return action === undefined ? null : { action, rest, sub };
}

const refuse = (manager: PackageManager, why: string): PackageCommand => ({ kind: 'refused', manager, message: `${why} ${SUPPORTED_PACKAGE_COMMANDS}` });

/** `name`, `name@range`, `@scope/name@range` → name and version ('latest' when none); null when not a registry package. */
export function parsePackageArgument(argument: string): RequestedPackage | null {
  const at = argument.indexOf('@', 1);
  const name = at === -1 ? argument : argument.slice(0, at);
  const version = at === -1 ? 'latest' : argument.slice(at + 1);
  return isValidPackageName(name) && isValidVersionRange(version) ? { name, version: version.trim() } : null;
}

/**
 * Reads a terminal line: a package install, add or remove Kiln performs itself; something else
 * npm-ish that would rewrite node_modules (update, dedupe, link, rebuild, global installs,
 * unknown options, installs chained with other commands) refused with the supported way; or any
 * other command ('other'), which runs as it is.
 */
export function classifyPackageCommand(line: string): PackageCommand {
  const parsed = words(line.trim());
  if (parsed === null) return { kind: 'other' };
  const segments: string[][] = [[]];
  for (const word of parsed.words) {
    if (SHELL_OPERATOR.test(word)) segments.push([]);
    else segments[segments.length - 1]?.push(word);
  }
  const commands = segments.map(segmentCommand);
  const touching = commands.find((c) => c !== null && actionOf(c.manager, c.args) !== null);
  if (touching === undefined || touching === null) return { kind: 'other' };
  const { manager } = touching;
  if (parsed.shell || segments.length > 1) {
    return refuse(manager, 'A package install must be a line of its own, without &&, ;, |, redirects or shell expansions.');
  }
  const found = actionOf(manager, touching.args);
  if (found === null) return { kind: 'other' };
  if (found.action === 'refuse') return refuse(manager, `\`${manager} ${found.sub}\` would rewrite node_modules, so it cannot run here.`);

  let section: DependencySection = 'dependencies';
  const named: string[] = [];
  for (let i = 0; i < found.rest.length; i += 1) {
    const arg = found.rest[i] ?? '';
    if (!arg.startsWith('-')) {
      named.push(arg);
      continue;
    }
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (DEV_FLAGS.has(arg)) section = 'devDependencies';
    else if (PROD_FLAGS.has(arg)) section = 'dependencies';
    else if (HARMLESS_FLAGS.has(arg)) continue;
    else if (HARMLESS_WITH_VALUE.has(flag)) {
      if (flag === arg && !(found.rest[i + 1] ?? '-').startsWith('-')) i += 1; // `--loglevel warn`
    } else return refuse(manager, `The option ${arg} is not supported here.`);
  }
  if (found.action === 'install' && named.length > 0) return refuse(manager, `\`${manager} ${found.sub}\` takes no package names.`);
  if (found.action === 'install' || named.length === 0) {
    return found.action === 'remove' ? refuse(manager, `\`${manager} ${found.sub}\` needs the names of the packages to remove.`) : { kind: 'install', manager };
  }

  const packages = new Map<string, RequestedPackage>();
  for (const argument of named) {
    const requested = parsePackageArgument(argument);
    if (requested === null) {
      return refuse(manager, `${JSON.stringify(argument)} is not a package name with an optional version or tag: only packages from the npm registry can be installed (no git, file, link, alias or URL specifiers).`);
    }
    packages.set(requested.name, requested); // the last one of a name wins, as with npm
  }
  if (found.action === 'remove') return { kind: 'remove', manager, names: [...packages.keys()] };
  return { kind: 'add', manager, packages: [...packages.values()], section };
}
