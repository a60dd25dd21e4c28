import { DEPENDENCY_SECTIONS, type DependencySection, type DependencySetRefused, dependencySetFromPackageJson } from './dependency-set.js';
import type { RequestedPackage } from './package-command.js';
import { err, ok, type Result } from '../shared/result.js';

/** A change to package.json's dependencies asked for in the terminal. */
export type PackageJsonChange =
  | { readonly kind: 'add'; readonly packages: readonly RequestedPackage[]; readonly section: DependencySection }
  | { readonly kind: 'remove'; readonly names: readonly string[] };

export interface PackageJsonEdit {
  /** package.json's new text (two-space JSON, a final newline; every other field kept). */
  readonly text: string;
  /** Whether the dependencies changed at all. */
  readonly changed: boolean;
  /** What people should know: a package that was not there to remove. */
  readonly notes: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sorted = (entries: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Applies an add or a remove to package.json's text. A package lives in one section only: adding
 * it to one removes it from the other. The result is checked as a dependency set (valid names and
 * registry versions only, within the package limit), so what is written is always installable
 * as far as Kiln's rules go; a refusal leaves nothing to write.
 */
export function changePackageJson(text: string, change: PackageJsonChange): Result<PackageJsonEdit, DependencySetRefused> {
  const current = dependencySetFromPackageJson(text);
  if (!current.ok) return current;
  const manifest = JSON.parse(text) as unknown;
  if (!isRecord(manifest)) return err({ code: 'SANDBOX.DEPENDENCIES_REFUSED', reason: 'not-an-object', message: 'package.json is not a JSON object.' });
  const sections: Record<DependencySection, Record<string, unknown>> = {
    dependencies: { ...(isRecord(manifest['dependencies']) ? manifest['dependencies'] : {}) },
    devDependencies: { ...(isRecord(manifest['devDependencies']) ? manifest['devDependencies'] : {}) },
  };
  const notes: string[] = [];
  if (change.kind === 'add') {
    const other: DependencySection = change.section === 'dependencies' ? 'devDependencies' : 'dependencies';
    for (const { name, version } of change.packages) {
      delete sections[other][name];
      sections[change.section][name] = version;
    }
  } else {
    for (const name of change.names) {
      if (!(name in sections.dependencies) && !(name in sections.devDependencies)) notes.push(`${name} is not in package.json.`);
      for (const section of DEPENDENCY_SECTIONS) delete sections[section][name];
    }
  }
  const next: Record<string, unknown> = { ...manifest };
  for (const section of DEPENDENCY_SECTIONS) {
    // A section the file did not have stays absent unless something is added to it.
    if (section in manifest || Object.keys(sections[section]).length > 0) next[section] = sorted(sections[section]);
  }
  const nextText = `${JSON.stringify(next, null, 2)}\n`;
  const checked = dependencySetFromPackageJson(nextText);
  if (!checked.ok) return checked;
  const changed = JSON.stringify(checked.value) !== JSON.stringify(current.value);
  return ok({ text: changed ? nextText : text, changed, notes });
}
