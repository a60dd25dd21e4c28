/** Shorter terms carry no meaning; longer ones are hashes, base64 or minified code. */
export const MIN_TERM_LENGTH = 2;
export const MAX_TERM_LENGTH = 40;

/**
 * Words too common in prompts and in code to tell files apart. Left out of both the index and
 * the queries: PostgreSQL's ts_rank_cd has no inverse document frequency, so 'the' or 'const'
 * would otherwise rank every file.
 */
export const STOP_TERMS: ReadonlySet<string> = new Set([
  // English function words and request verbs
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'could', 'do', 'for', 'from', 'has', 'have',
  'i', 'if', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'our', 'please', 'should',
  'so', 'that', 'the', 'their', 'then', 'there', 'these', 'this', 'to', 'was', 'we', 'were', 'when',
  'which', 'will', 'with', 'would', 'you', 'your', 'add', 'make', 'want', 'need', 'some',
  // TypeScript keywords every file has
  'const', 'let', 'var', 'import', 'export', 'default', 'return', 'function', 'true', 'false', 'null',
  'undefined', 'else', 'void', 'async', 'await', 'new', 'typeof',
]);

// A run of letters, digits and underscores: an identifier, a word or a number.
const WORD = /[\p{L}\p{N}_]+/gu;
// The parts of an identifier: 'parseHTTPResponse2' → parse, HTTP, Response, 2.
const PART = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+|[\p{L}\p{N}]+/gu;

const keep = (term: string): boolean => term.length >= MIN_TERM_LENGTH && term.length <= MAX_TERM_LENGTH && !STOP_TERMS.has(term);

// A number in scientific notation followed by a letter ('12e3px'). PostgreSQL's text parser reads
// the number as a token of its own ('12e3', 'px'), so the index splits it the same way: a term must
// be exactly one lexeme there, or the two adapters would disagree on what matches.
const LEADING_EXPONENT = /^([0-9]+e[0-9]+)([^0-9].*)$/u;

const lexemes = (term: string): string[] => {
  const split = LEADING_EXPONENT.exec(term);
  return split ? [split[1] as string, split[2] as string] : [term];
};

/**
 * The search terms of a text, in order and with repeats (term frequency matters): each word
 * lower-cased, and an identifier also split into its camelCase and snake_case parts —
 * 'useAuthStore' gives 'useauthstore', 'use', 'auth', 'store'; 'user_id' gives 'userid', 'user'.
 * Terms are letters and digits only, so they are safe to put into a full-text query.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    const parts = [...word.matchAll(PART)].map(([part]) => part.toLowerCase());
    for (const whole of lexemes(parts.join(''))) if (keep(whole)) terms.push(whole);
    if (parts.length > 1) for (const part of parts) if (keep(part)) terms.push(part);
  }
  return terms;
}

/** The distinct search terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  return [...new Set(searchTerms(text))];
}
