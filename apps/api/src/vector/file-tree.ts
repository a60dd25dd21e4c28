import { type IndexEntry, MAX_SANDBOX_PATH_LENGTH } from '@kiln/domain';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** At most this many entries (files and folders, at every depth) in one file_tree. */
export const MAX_FILE_TREE_ENTRIES = 20_000;
/** Folders nest at most this deep. */
export const MAX_FILE_TREE_DEPTH = 64;
/** A file's text in a file_tree, in characters (the JSON body limit is lower anyway). */
export const MAX_TREE_CONTENT_LENGTH = 5 * 1024 * 1024;

const KEYS = new Set(['path', 'content', 'name', 'type', 'children']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a value is not a SPEC §7 file_tree, or null when it is one: an array of either
 * `{ path, content? }` or the sandbox's tree entries `{ name, type, path, children? }` (mixed is
 * fine). Walked without recursion, so a deep body cannot exhaust the stack.
 */
export function fileTreeProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be an array';
  const stack: { items: unknown[]; at: string; depth: number }[] = [{ items: value, at: '', depth: 1 }];
  let count = 0;
  while (stack.length > 0) {
    const { items, at, depth } = stack.pop() as { items: unknown[]; at: string; depth: number };
    if (depth > MAX_FILE_TREE_DEPTH) return `folders nest deeper than ${MAX_FILE_TREE_DEPTH}`;
    for (let i = 0; i < items.length; i += 1) {
      count += 1;
      if (count > MAX_FILE_TREE_ENTRIES) return `must hold at most ${MAX_FILE_TREE_ENTRIES} entries`;
      const where = `${at}[${i}]`;
      const item = items[i];
      if (!isObject(item)) return `${where} must be an object`;
      const unknown = Object.keys(item).find((key) => !KEYS.has(key));
      if (unknown !== undefined) return `${where}.${unknown} is not allowed`;
      const { path, content, name, type, children } = item;
      if (typeof path !== 'string' || path === '' || path.length > MAX_SANDBOX_PATH_LENGTH) {
        return `${where}.path must be a non-empty string of at most ${MAX_SANDBOX_PATH_LENGTH} characters`;
      }
      if (content !== undefined && (typeof content !== 'string' || content.length > MAX_TREE_CONTENT_LENGTH)) {
        return `${where}.content must be a string of at most ${MAX_TREE_CONTENT_LENGTH} characters`;
      }
      if (name !== undefined && typeof name !== 'string') return `${where}.name must be a string`;
      if (type !== undefined && type !== 'file' && type !== 'directory') return `${where}.type must be 'file' or 'directory'`;
      if (children !== undefined) {
        if (!Array.isArray(children)) return `${where}.children must be an array`;
        if (type === 'file') return `${where}.children is only for folders`;
        if (content !== undefined) return `${where}: a folder has no content`;
        stack.push({ items: children, at: `${where}.children`, depth: depth + 1 });
      } else if (type === 'directory' && content !== undefined) {
        return `${where}: a folder has no content`;
      }
    }
  }
  return null;
}

/** class-validator rule for fileTreeProblem. */
export function IsFileTree(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFileTree',
      validator: {
        validate: (value: unknown) => fileTreeProblem(value) === null,
        defaultMessage: (args) => fileTreeProblem(args?.value) ?? 'must be a file tree',
      },
    },
    options,
  );
}

/**
 * A checked file_tree as index entries: files (with their text, or to read from the sandbox)
 * and folders to read whole (a folder listed without children). A folder listed with children
 * stands for those children only.
 */
export function indexEntries(tree: readonly unknown[]): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const stack: unknown[][] = [[...tree].reverse()];
  while (stack.length > 0) {
    const items = stack.at(-1) as unknown[];
    const item = items.pop() as Record<string, unknown> | undefined;
    if (item === undefined) {
      stack.pop();
      continue;
    }
    const path = item['path'] as string;
    const children = item['children'] as unknown[] | undefined;
    if (children !== undefined) stack.push([...children].reverse());
    else if (item['type'] === 'directory') entries.push({ path, type: 'directory' });
    else entries.push(item['content'] === undefined ? { path } : { path, content: item['content'] as string });
  }
  return entries;
}
