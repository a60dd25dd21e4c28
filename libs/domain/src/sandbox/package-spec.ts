// What may stand in a package.json's dependencies: npm package names and version ranges (or
// dist-tags), nothing that makes an install fetch code from elsewhere. Used by the dependency
// set (package.json) and by the assistant's add-dependency operation.

/** npm's own limit on package names. */
export const MAX_PACKAGE_NAME_LENGTH = 214;
export const MAX_VERSION_RANGE_LENGTH = 256;

// npm's rules for new package names: lowercase, URL-safe, optionally scoped, not starting with '.' or '_'.
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

export function isValidPackageName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_PACKAGE_NAME_LENGTH && PACKAGE_NAME.test(name);
}

// One comparator of a range: an optional operator, then 1-3 numeric or wildcard parts, then an
// optional prerelease and build. 'v' prefixes are accepted as npm does.
const COMPARATOR = /^(?:[~^]|[<>]=?|=)?v?(?:0|[1-9]\d*|[xX*])(?:\.(?:0|[1-9]\d*|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const DIST_TAG = /^[a-z][a-z0-9._-]{0,31}$/;

/**
 * Whether `range` is an npm version range or dist-tag. URLs, git, file and alias specifiers are
 * not: a model must never make the sandbox fetch code from an arbitrary place or path.
 */
export function isValidVersionRange(range: string): boolean {
  const trimmed = range.trim();
  if (trimmed.length === 0 || range.length > MAX_VERSION_RANGE_LENGTH) return false;
  if (DIST_TAG.test(trimmed) && !/^v\d/.test(trimmed)) return true;
  return trimmed.split('||').every((set) => {
    const part = set.trim();
    if (part === '') return false;
    const hyphen = part.split(/\s+-\s+/);
    if (hyphen.length === 2) return hyphen.every((side) => COMPARATOR.test(side) && /^v?[\dxX*]/.test(side));
    if (hyphen.length > 2) return false;
    // '>= 1.2.3' is written with a space by some; join an operator to its version first.
    const words = part.replace(/([<>]=?|=|~|\^)\s+/g, '$1').split(/\s+/);
    return words.every((word) => COMPARATOR.test(word));
  });
}
