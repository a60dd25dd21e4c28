import { isValidPackageName, isValidVersionRange } from './package-spec.js';
import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';

/** Most packages one project may list, dependencies and devDependencies together. */
export const MAX_PROJECT_DEPENDENCIES = 300;

export const DEPENDENCY_SECTIONS = Object.freeze(['dependencies', 'devDependencies'] as const);
export type DependencySection = (typeof DEPENDENCY_SECTIONS)[number];

/**
 * What a project asks npm to install: the names and version ranges of its package.json's
 * `dependencies` and `devDependencies`, each section sorted by name, ranges trimmed. Only
 * dependencySetFromPackageJson makes one, so every name is a valid npm name and every range a
 * plain semver range or dist-tag (never a git, file, link, alias or URL specifier). Every other
 * field of package.json (scripts, overrides, workspaces…) is no part of it.
 */
export type DependencySet = {
  readonly [S in DependencySection]: Readonly<Record<string, string>>;
} & { readonly __brand: 'DependencySet' };

export type DependencySetRefusalReason =
  | 'not-json'
  | 'not-an-object'
  | 'section-not-an-object'
  | 'invalid-package-name'
  | 'invalid-version'
  | 'too-many';

/** package.json asks for something Kiln does not install; `message` is meant for people and the assistant. */
export type DependencySetRefused = DomainError<'SANDBOX.DEPENDENCIES_REFUSED'> & {
  readonly reason: DependencySetRefusalReason;
  /** The package the refusal is about, when there is one. */
  readonly subject?: string;
};

const refused = (reason: DependencySetRefusalReason, message: string, subject?: string): DependencySetRefused =>
  subject === undefined
    ? { code: 'SANDBOX.DEPENDENCIES_REFUSED', reason, message }
    : { code: 'SANDBOX.DEPENDENCIES_REFUSED', reason, message, subject };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const byName = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reads the dependency set of a package.json's text, refusing what Kiln must not install. */
export function dependencySetFromPackageJson(text: string): Result<DependencySet, DependencySetRefused> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return err(refused('not-json', 'package.json is not valid JSON.'));
  }
  if (!isRecord(manifest)) return err(refused('not-an-object', 'package.json is not a JSON object.'));
  const set: Partial<Record<DependencySection, Readonly<Record<string, string>>>> = {};
  let count = 0;
  for (const section of DEPENDENCY_SECTIONS) {
    const raw = manifest[section] ?? {};
    if (!isRecord(raw)) return err(refused('section-not-an-object', `package.json's ${section} is not an object of package names and versions.`));
    const entries: [string, string][] = [];
    for (const [name, version] of Object.entries(raw)) {
      if (!isValidPackageName(name)) {
        return err(refused('invalid-package-name', `package.json's ${section} lists ${JSON.stringify(name)}, which is not a valid npm package name.`, name));
      }
      if (typeof version !== 'string' || !isValidVersionRange(version)) {
        return err(
          refused(
            'invalid-version',
            `package.json's ${section} asks for ${name} at ${JSON.stringify(version)}: only version ranges and tags from the npm registry are installed (no git, file, link, alias or URL specifiers).`,
            name,
          ),
        );
      }
      entries.push([name, version.trim()]);
    }
    count += entries.length;
    if (count > MAX_PROJECT_DEPENDENCIES) {
      return err(refused('too-many', `package.json lists more than ${MAX_PROJECT_DEPENDENCIES} dependencies.`));
    }
    set[section] = Object.freeze(Object.fromEntries(entries.sort(byName)));
  }
  // Both sections were filled above; the brand says this function checked them.
  return ok(Object.freeze(set) as DependencySet);
}

/**
 * The set written the same way whatever the order and spacing of the package.json it came from:
 * equal sets give equal text (the adapter hashes it to name the installed tree).
 */
export function canonicalDependencySet(set: DependencySet): string {
  return JSON.stringify(DEPENDENCY_SECTIONS.map((section) => [section, Object.entries(set[section]).sort(byName)]));
}
