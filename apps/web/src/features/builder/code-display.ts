/**
 * The builder's code display (SPEC §3 "code display items", SPEC §4 "Code display"): the open
 * file tabs, which one is active, and whether the display is shown. Pure and immutable.
 *
 * - An item whose path is already open replaces that item's contents (it keeps its tab).
 * - A new item whose file *name* is already shown by another path gets a '(n) ' prefix on its
 *   label, n being the smallest number ≥ 1 not used by any open label: 'index.ts',
 *   '(1) index.ts', '(2) index.ts'. Labels are therefore unique.
 * - Removing the active item selects the first remaining one, or none.
 * - Hiding the display by hand suppresses automatic reopening (files the AI or a command
 *   opens) until it is reset; a person opening a file or showing the display is that reset.
 */

export interface CodeDisplayItem {
  /** Project-relative path: the item's identity. */
  readonly path: string;
  readonly contents: string;
  /** What its tab shows: the file name, or '(n) name' for a duplicate name. */
  readonly label: string;
}

export interface CodeDisplayState {
  /** In opening order. */
  readonly items: readonly CodeDisplayItem[];
  readonly activePath: string | null;
  /** The display is shown. */
  readonly visible: boolean;
  /** Hidden by hand: automatic opens leave it hidden until reset. */
  readonly suppressed: boolean;
}

/** Who opens an item: a person (a click in the file tree) or the product (the AI, a command). */
export type CodeDisplayOrigin = 'user' | 'automatic';

export const EMPTY_CODE_DISPLAY: CodeDisplayState = Object.freeze({
  items: Object.freeze([]),
  activePath: null,
  visible: true,
  suppressed: false,
});

/** The last segment of a path ('src/app/App.tsx' → 'App.tsx'); either slash separates. */
export function fileNameOf(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}

/** The label a new item for `path` gets next to the open `items`. */
export function labelFor(items: readonly CodeDisplayItem[], path: string): string {
  const name = fileNameOf(path);
  const labels = new Set(items.filter((item) => item.path !== path).map((item) => item.label));
  const duplicate = labels.has(name) || items.some((item) => item.path !== path && fileNameOf(item.path) === name);
  if (!duplicate) return name;
  let n = 1;
  while (labels.has(`(${n}) ${name}`)) n += 1;
  return `(${n}) ${name}`;
}

/**
 * Opens an item, or replaces the contents of the open item with the same path; it becomes the
 * active one. A person's open shows the display (and resets a manual hide); an automatic open
 * shows it only when it was not hidden by hand.
 */
export function openCodeItem(
  state: CodeDisplayState,
  item: { readonly path: string; readonly contents: string },
  origin: CodeDisplayOrigin,
): CodeDisplayState {
  const existing = state.items.find((open) => open.path === item.path);
  const items = existing
    ? state.items.map((open) => (open.path === item.path ? Object.freeze({ ...open, contents: item.contents }) : open))
    : [...state.items, Object.freeze({ path: item.path, contents: item.contents, label: labelFor(state.items, item.path) })];
  const byUser = origin === 'user';
  return Object.freeze({
    items: Object.freeze(items),
    activePath: item.path,
    visible: byUser ? true : state.suppressed ? state.visible : true,
    suppressed: byUser ? false : state.suppressed,
  });
}

/** New contents for an open item without making it active (a refresh after a change on disk). */
export function updateCodeItemContents(state: CodeDisplayState, path: string, contents: string): CodeDisplayState {
  if (!state.items.some((item) => item.path === path)) return state;
  return Object.freeze({
    ...state,
    items: Object.freeze(state.items.map((item) => (item.path === path ? Object.freeze({ ...item, contents }) : item))),
  });
}

/** Closes an item; closing the active one selects the first remaining item, or none. */
export function removeCodeItem(state: CodeDisplayState, path: string): CodeDisplayState {
  if (!state.items.some((item) => item.path === path)) return state;
  const items = state.items.filter((item) => item.path !== path);
  const activePath = state.activePath === path ? (items[0]?.path ?? null) : state.activePath;
  return Object.freeze({ ...state, items: Object.freeze(items), activePath });
}

/** Makes an open item the active one (a click on its tab); unknown paths change nothing. */
export function selectCodeItem(state: CodeDisplayState, path: string): CodeDisplayState {
  if (state.activePath === path || !state.items.some((item) => item.path === path)) return state;
  return Object.freeze({ ...state, activePath: path });
}

/** A person hides the display: automatic opens no longer show it until reset. */
export function hideCodeDisplay(state: CodeDisplayState): CodeDisplayState {
  return Object.freeze({ ...state, visible: false, suppressed: true });
}

/** A person shows the display again: it is visible and the manual hide is reset. */
export function showCodeDisplay(state: CodeDisplayState): CodeDisplayState {
  return Object.freeze({ ...state, visible: true, suppressed: false });
}

/** Ends the suppression of automatic reopening without showing the display. */
export function resetCodeDisplaySuppression(state: CodeDisplayState): CodeDisplayState {
  return state.suppressed ? Object.freeze({ ...state, suppressed: false }) : state;
}
