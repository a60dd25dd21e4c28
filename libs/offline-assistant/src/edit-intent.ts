// Reading change requests ("change the title to X and make it dark") into edit intents.
import { pascalCase, kebabCase, titleCase } from './code.js';
import { coloursMentioned, fontMentioned, sectionsMentioned, wantsDark, type SectionId } from './intent.js';
import type { FontChoice } from './palette.js';
import { HERO_REQUEST, LOGO_REQUEST } from './attached-images.js';

export type EditIntent =
  | { readonly type: 'rename'; readonly name: string }
  | { readonly type: 'heading'; readonly text: string }
  | { readonly type: 'subtitle'; readonly text: string }
  | { readonly type: 'button'; readonly from: string | null; readonly to: string }
  | { readonly type: 'replace-text'; readonly from: string; readonly to: string }
  /** The text of the element picked in the preview (selection.ts): changed in that element only. */
  | { readonly type: 'replace-selected'; readonly tag: string; readonly from: string; readonly to: string }
  | {
      readonly type: 'theme';
      readonly primary?: string;
      readonly background?: string;
      readonly dark?: boolean;
      readonly font?: FontChoice;
      readonly radius?: number;
    }
  | { readonly type: 'add-section'; readonly section: SectionId }
  | { readonly type: 'remove-section'; readonly section: SectionId }
  | { readonly type: 'add-page'; readonly name: string; readonly path: string; readonly component: string }
  /** A button in the header that switches between light and dark, remembered in the browser. */
  | { readonly type: 'dark-toggle' }
  /** A heart on each item that saves it as a favourite, kept in the browser. */
  | { readonly type: 'favourites' }
  /** The attached image (its public path; null: none attached) as the logo in the header (attached-images.ts). */
  | { readonly type: 'logo'; readonly image: string | null }
  /** The attached image at the top of the home page's hero. */
  | { readonly type: 'hero-image'; readonly image: string | null };

export interface ParsedEdits {
  readonly intents: readonly EditIntent[];
  /** Clauses that named no change the offline assistant knows. */
  readonly unknown: readonly string[];
}

const EDIT_VERBS = 'make|add|remove|delete|drop|use|change|set|rename|switch|put|include|replace|hide|get rid|give|turn|update|call|title|name|apply|swap|insert|create|show|take out';

/** Splits a request into clauses, keeping quoted text (which may hold "and" or dots) whole. */
export function splitClauses(prompt: string): string[] {
  const quoted: string[] = [];
  const masked = prompt.replace(/["“][^"”]*["”]|'[^'\n]{1,80}'(?=\s|$|[.,;!?])/g, (q) => {
    quoted.push(q);
    return `\u0000${quoted.length - 1}\u0000`;
  });
  const separator = new RegExp(`(?:[.;!?]+\\s+|\\n+|,?\\s+(?:and then|then|and also|also|plus)\\s+|(?:,\\s*(?:and\\s+)?|\\s+and\\s+)(?=(?:please\\s+)?(?:${EDIT_VERBS})\\b))`, 'i');
  return masked
    .split(separator)
    .map((clause) => clause.replace(/\u0000(\d+)\u0000/g, (_, i: string) => quoted[Number(i)] ?? ''))
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

/** A value as the person wrote it, without wrapping quotes, trailing punctuation or "please". */
export function cleanValue(raw: string): string {
  let value = raw.trim().replace(/\s+(please|instead|thanks|thank you)$/i, '').trim();
  const quoted = /^["“'‘](.*)["”'’]$/.exec(value);
  if (quoted) value = (quoted[1] as string).trim();
  // A final '?' or '!' may be part of a heading; a final '.' or ',' ends the sentence.
  if (!quoted) value = value.replace(/[.,;:]+$/, '').trim();
  return value.slice(0, 120);
}

const Q_OPEN = `["“'‘]`;
const Q_CLOSE = `["”'’]`;

function match(clause: string, pattern: RegExp): RegExpExecArray | null {
  return pattern.exec(clause);
}

const DARK_TOGGLE =
  /\b(?:dark[- ]?mode|dark[- ]?theme|light[- ]?mode|night[- ]?mode|theme|colou?r[- ]?scheme|light\/dark|dark\/light)\s+(?:toggle|switch|switcher|button|selector|picker)\b|\btoggle\b.*\b(?:dark|light|night|theme)\b|\b(?:switch|toggle|choose)\s+between\s+(?:light|dark)\s+and\s+(?:light|dark)\b/i;
const FAVOURITES = /\b(favou?rites?|bookmark(?:s|ed|ing)?|heart (?:button|icon)|hearts?|like button|wish ?list)\b/i;
const CHECKLIST = /\b(?:shopping|grocery|groceries|packing)\s+list\b|\bchecklist\b/i;

const PAGE_STOP = /^(landing|home|web|new|the|a|an|another|one|single)$/i;

function parseClause(clause: string): EditIntent[] {
  const lower = clause.toLowerCase();
  let m: RegExpExecArray | null;

  // An attached image as the logo or on the home page (the image is filled in from the message's attachments).
  if (LOGO_REQUEST.test(clause)) return [{ type: 'logo', image: null }];
  if (HERO_REQUEST.test(clause)) return [{ type: 'hero-image', image: null }];

  // A quoted button label: change the "Sign up" button to "Join now".
  m = match(clause, new RegExp(`\\b(?:change|rename|relabel|update|set)\\s+(?:the\\s+)?${Q_OPEN}(.+?)${Q_CLOSE}\\s+button(?:\\s+(?:text|label))?\\s+(?:to|into|so it says|to say)\\s+(.+)$`, 'i'));
  if (m) return [{ type: 'button', from: cleanValue(m[1] as string), to: cleanValue(m[2] as string) }];

  m = match(
    clause,
    /\b(?:change|set|update|rename|make|relabel)\s+(?:the\s+)?(?:(?:main|primary|hero|cta|call[- ]to[- ]action|first|big|top)\s+)?button(?:'s)?(?:\s+(?:text|label|copy|wording))?\s+(?:to|say|says|read|reads|into|so it says|to say)\s+(.+)$/i,
  );
  if (m) return [{ type: 'button', from: null, to: cleanValue(m[1] as string) }];

  // Replacing a quoted text anywhere.
  m = match(clause, new RegExp(`\\b(?:change|replace|swap|turn|rewrite|rename|update)\\s+(?:the\\s+(?:text|word|words|label|copy|phrase)\\s+)?${Q_OPEN}(.+?)${Q_CLOSE}\\s+(?:to|with|into|by|for)\\s+(.+)$`, 'i'));
  if (m) return [{ type: 'replace-text', from: (m[1] as string).trim(), to: cleanValue(m[2] as string) }];

  // Quoted text made to say something else: make "Pantry" say "Larder".
  m = match(clause, new RegExp(`\\b(?:make|have|let|set|update)\\s+${Q_OPEN}(.+?)${Q_CLOSE}\\s+(?:say|says|read|reads|to say|to read)\\s+(.+)$`, 'i'));
  if (m) return [{ type: 'replace-text', from: (m[1] as string).trim(), to: cleanValue(m[2] as string) }];

  m = match(
    clause,
    /\b(?:change|set|update|make|replace|rewrite)\s+(?:the\s+)?(?:main\s+|hero\s+|page\s+|big\s+|top\s+)?(?:heading|headline|h1|hero title|hero text|main title)\s+(?:to|say|says|read|reads|into|with|so it says)\s+(.+)$/i,
  );
  if (m) return [{ type: 'heading', text: cleanValue(m[1] as string) }];

  m = match(
    clause,
    /\b(?:change|set|update|make|replace|rewrite)\s+(?:the\s+)?(?:subtitle|sub-?title|subheading|sub-?heading|tagline|slogan|intro(?:duction)?(?:\s+text)?|description|lead(?:\s+text)?)\s+(?:to|say|says|read|reads|into|with)\s+(.+)$/i,
  );
  if (m) return [{ type: 'subtitle', text: cleanValue(m[1] as string) }];

  m =
    match(clause, /\b(?:change|set|update|rename)\s+(?:the\s+)?(?:(?:app|site|website|web site|page|project|brand|company|business|shop|store)(?:'s)?\s+)?(?:title|name)\s+(?:to|as|into)\s+(.+)$/i) ??
    match(clause, /\brename\s+(?:the\s+|this\s+|my\s+)?(?:app|site|website|project|page|it|brand|business|shop|store)\s+(?:to|as)\s+(.+)$/i) ??
    match(clause, /\b(?:call it|name it|title it)\s+(.+)$/i);
  if (m) return [{ type: 'rename', name: cleanValue(m[1] as string) }];

  // Pages: add an about page, add a page called Team, create a contact page at /reach-us.
  // "a page called Team" first: in "Add a page called Team" the plain pattern would take "a" as the name.
  m =
    [
      match(clause, /\b(?:add|create|make)\s+(?:a\s+)?(?:new\s+)?page\s+(?:called|named|titled|for)\s+["“']?([\w' &-]{1,40}?)["”']?(?:\s+(?:at|on)\s+(\/[\w/-]*))?\s*$/i),
      match(clause, /\b(?:add|create|make|build|include|give me|i want|i need)\s+(?:me\s+)?(?:(?:an|a|the|another|one more)\s+)?(?:(?:new|separate|extra)\s+)?([a-z][\w' &-]{0,40}?)\s+page\b(?:.*?\b(?:at|on|under|with (?:the )?(?:route|path|url))\s+(\/[\w/-]*))?/i),
    ].find((found) => found !== null && !PAGE_STOP.test((found[1] as string).trim())) ?? null;
  if (m) {
    const name = titleCase(cleanValue(m[1] as string).replace(/^(new|separate|extra)\s+/i, ''));
    const path = m[2] ? `/${kebabCase(m[2] as string) || kebabCase(name)}` : `/${kebabCase(name)}`;
    return [{ type: 'add-page', name, path: path === '/' ? `/${kebabCase(name) || 'page'}` : path, component: `${pascalCase(name)}Page` }];
  }

  const intents: EditIntent[] = [];
  // Features: a dark mode toggle, favourites, a checklist such as a shopping list.
  if (DARK_TOGGLE.test(clause)) return [{ type: 'dark-toggle' }];
  if (FAVOURITES.test(clause)) return [{ type: 'favourites' }];
  const list = CHECKLIST.exec(clause);
  if (list && /\b(add|create|make|build|include|give me|i want|i need|want|need|let me|keep)\b/i.test(clause)) {
    const name = titleCase(list[0].toLowerCase().replace(/\bgroceries\b/, 'grocery'));
    return [{ type: 'add-page', name, path: `/${kebabCase(name)}`, component: `${pascalCase(name)}Page` }];
  }

  const removing = /\b(remove|delete|drop|hide|get rid of|take out|take away|lose|no more|without|don't need|do not need)\b/i.test(clause);
  const adding = /\b(add|include|insert|put|show|create|give me|i want|we need|append|plus)\b/i.test(clause);
  const sections = sectionsMentioned(clause, true);
  if (sections.length > 0 && (removing || adding) && !/\b(colou?r|theme|background|font)\b/i.test(lower)) {
    for (const section of sections) intents.push({ type: removing ? 'remove-section' : 'add-section', section });
    return intents;
  }

  // Theme: colours, dark or light, fonts, corners.
  const themed = /\b(make|use|change|set|switch|turn|apply|give|want|prefer|go|paint|colou?r|theme|mode|background|font|corners?|buttons?|accent|primary|brand)\b/i.test(clause);
  if (themed) {
    const colours = coloursMentioned(clause);
    const dark = wantsDark(clause);
    const font = fontMentioned(clause);
    const radius = /\b(rounder|more rounded|round(ed)? corners|pill)\b/i.test(clause)
      ? 22
      : /\b(square|sharp|less rounded|no rounded)\b(\s+corners)?/i.test(clause)
        ? 4
        : undefined;
    const background = /\bbackground\b/i.test(clause) ? colours[0] : undefined;
    const primary = background === undefined ? colours.find((c) => c !== '#ffffff') ?? colours[0] : colours[1];
    if (colours.length > 0 || dark !== null || font !== null || radius !== undefined) {
      return [
        {
          type: 'theme',
          ...(primary ? { primary } : {}),
          ...(background ? { background } : {}),
          ...(dark !== null ? { dark } : {}),
          ...(font ? { font } : {}),
          ...(radius !== undefined ? { radius } : {}),
        },
      ];
    }
  }
  return intents;
}

export function parseEdits(prompt: string): ParsedEdits {
  const intents: EditIntent[] = [];
  const unknown: string[] = [];
  for (const clause of splitClauses(prompt)) {
    const found = parseClause(clause);
    if (found.length === 0) unknown.push(clause);
    intents.push(...found);
  }
  return { intents, unknown };
}
