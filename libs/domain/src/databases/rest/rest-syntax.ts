import { REST_LIMITS } from './rest-query.js';

/**
 * The lexical rules shared by the parser and the formatter. Identifiers: plain ones
 * (`[A-Za-z_][A-Za-z0-9_]*`) or double-quoted ones from a safe charset only (letters, digits,
 * `_`, `$`, `-`, space), at most 63 characters — so no name can carry a quote, a dot or a `;`.
 */
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const QUOTED_IDENTIFIER_BODY = /^[A-Za-z0-9_ $-]+$/;

export function isPlainIdentifier(name: string): boolean {
  return PLAIN_IDENTIFIER.test(name);
}

/** The name an identifier token stands for, or null when it is not one. */
export function readIdentifier(token: string): string | null {
  if (token.length >= 2 && token.startsWith('"') && token.endsWith('"')) {
    const body = token.slice(1, -1);
    return QUOTED_IDENTIFIER_BODY.test(body) && body.length <= REST_LIMITS.maxIdentifierLength ? body : null;
  }
  return PLAIN_IDENTIFIER.test(token) && token.length <= REST_LIMITS.maxIdentifierLength ? token : null;
}

export function isIdentifier(name: string): boolean {
  return readIdentifier(name) !== null || readIdentifier(`"${name}"`) !== null;
}

export function formatIdentifier(name: string): string {
  return isPlainIdentifier(name) ? name : `"${name}"`;
}

/**
 * Splits at `separator` outside parentheses and double quotes (a backslash escapes the next
 * character inside quotes). Null when the parentheses or the quotes do not balance.
 */
export function splitTopLevel(text: string, separator = ','): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let inQuote = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '\\') i++;
      else if (c === '"') inQuote = false;
    } else if (c === '"') inQuote = true;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) return null;
    } else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (inQuote || depth !== 0) return null;
  parts.push(text.slice(start));
  return parts;
}

/** The deepest nesting of parentheses outside quotes (a cheap check before recursing). */
export function parenthesisDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '\\') i++;
      else if (c === '"') inQuote = false;
    } else if (c === '"') inQuote = true;
    else if (c === '(') max = Math.max(max, ++depth);
    else if (c === ')') depth--;
  }
  return max;
}

/**
 * One value inside a list or a logic tree: either double-quoted (backslash escapes the next
 * character) or bare, and then free of `"`, `,`, `(`, `)`. Null when it is neither.
 */
export function readListValue(token: string): string | null {
  if (token.startsWith('"')) {
    let out = '';
    for (let i = 1; i < token.length; i++) {
      const c = token[i] as string;
      if (c === '\\') {
        if (i + 1 >= token.length) return null;
        out += token[++i];
      } else if (c === '"') return i === token.length - 1 ? out : null;
      else out += c;
    }
    return null;
  }
  return /["(),]/.test(token) ? null : token;
}

export function formatListValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
