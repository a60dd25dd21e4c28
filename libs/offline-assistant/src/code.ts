// Helpers for writing generated source text safely: string literals, JSX text and names.

/** A single-quoted JavaScript string literal for `value`. */
export function str(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}'`;
}

/** Text that can stand between JSX tags as written (braces and angle brackets escaped). */
export function jsxText(value: string): string {
  return value.replace(/[{}<>]/g, (c) => `{'${c}'}`).replace(/\s+/g, ' ');
}

/** Text for an HTML document (index.html). */
export function htmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Words of a phrase, letters and digits only. */
export function words(value: string): string[] {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** 'about us' → 'AboutUs' (a component name; never starts with a digit). */
export function pascalCase(value: string): string {
  const name = words(value)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('');
  if (name === '') return 'Page';
  return /^\d/.test(name) ? `Page${name}` : name;
}

/** 'About Us' → 'about-us' (a route or an element id). */
export function kebabCase(value: string): string {
  return words(value)
    .map((w) => w.toLowerCase())
    .join('-');
}

const ACRONYMS: Readonly<Record<string, string>> = { saas: 'SaaS', ai: 'AI', api: 'API', crm: 'CRM', ui: 'UI', ux: 'UX', hr: 'HR', seo: 'SEO', diy: 'DIY', bbq: 'BBQ', nyc: 'NYC', usa: 'USA', uk: 'UK' };

/** 'coffee shop' → 'Coffee Shop'; short words stay lowercase inside; known acronyms keep their case. */
export function titleCase(value: string): string {
  const small = new Set(['a', 'an', 'and', 'the', 'of', 'for', 'in', 'on', 'to', 'with', 'at', 'by', 'or']);
  return value
    .trim()
    .split(/\s+/)
    .map((w, i) => ACRONYMS[w.toLowerCase()] ?? (i > 0 && small.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/** A stable 32-bit hash of text (FNV-1a): the seed of every "choice" the generator makes. */
export function hashText(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Picks one item by a seed; the same seed always picks the same item. */
export function pick<T>(items: readonly T[], seed: number): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[seed % items.length] as T;
}

export function lines(...parts: (string | false | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string').join('\n');
}

/** Indents every non-empty line of `text` by `spaces`. */
export function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? line : pad + line))
    .join('\n');
}

/** Letters whose name starts with a vowel sound when an abbreviation is spelled out (an FAQ, an SMS). */
const VOWEL_SOUND_LETTERS = /^[AEFHILMNORSX]/;
/** Words that start with a vowel letter but a consonant sound (a user, a one-off, a European). */
const CONSONANT_SOUND = /^(uni|use|usu|uti|ura|ure|euro|eu|one|once|ubiq|ufo)/i;
/** Words that start with a silent h (an hour, an honest). */
const SILENT_H = /^(hour|honest|honou?r|heir)/i;

/** 'a' or 'an' before a word, by its first sound: "an About page", "a FAQ"→"an FAQ", "a user". */
export function article(word: string): 'a' | 'an' {
  const first = word.trim().split(/\s+/)[0] ?? '';
  if (first === '') return 'a';
  if (/^[A-Z]{2,}\b/.test(first)) return VOWEL_SOUND_LETTERS.test(first) ? 'an' : 'a';
  if (SILENT_H.test(first)) return 'an';
  if (CONSONANT_SOUND.test(first)) return 'a';
  return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** The word with its article: withArticle('About') → 'an About'. */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}
