/**
 * SPEC §5: an upload path has its leading and trailing slashes removed and repeated slashes
 * collapsed, so 'a//b/' and '/a/b' name the same object. A path of only slashes becomes ''
 * (the bucket root); whether that is acceptable is the caller's decision.
 */
export function normalizeUploadPath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .join('/');
}
