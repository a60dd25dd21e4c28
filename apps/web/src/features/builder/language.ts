/** The editor's language for a file, chosen by its extension. */
export type EditorLanguage = 'javascript' | 'jsx' | 'typescript' | 'tsx' | 'css' | 'html' | 'json' | 'text';

const BY_EXTENSION: Readonly<Record<string, EditorLanguage>> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  css: 'css',
  scss: 'css',
  html: 'html',
  htm: 'html',
  svg: 'html',
  json: 'json',
  jsonc: 'json',
};

export function languageOf(path: string): EditorLanguage {
  const name = path.split('/').at(-1) ?? path;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'text';
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? 'text';
}
