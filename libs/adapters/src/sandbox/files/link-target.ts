/**
 * Where a symbolic link inside a project leads, as project-relative names: `linkDir` is the
 * folder holding the link (names from the project root), `target` the link's text, `projectDir`
 * the project's absolute path as the host sees it (no links in it). An absolute target counts
 * only when it names the project folder or something in it. null when the target leaves the
 * project ('..' above the root, an absolute path elsewhere, an empty link).
 *
 * The names are walked again from the project's root, one at a time and never through a link,
 * so what this answers is only ever a path inside the project.
 */
export function linkTargetNames(linkDir: readonly string[], target: string, projectDir: string): string[] | null {
  if (target === '') return null;
  let rest: string;
  let names: string[];
  if (target.startsWith('/')) {
    const base = projectDir.endsWith('/') ? projectDir.slice(0, -1) : projectDir;
    if (target !== base && !target.startsWith(`${base}/`)) return null;
    rest = target.slice(base.length);
    names = [];
  } else {
    rest = target;
    names = [...linkDir];
  }
  for (const name of rest.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (names.length === 0) return null;
      names.pop();
    } else {
      names.push(name);
    }
  }
  return names;
}
