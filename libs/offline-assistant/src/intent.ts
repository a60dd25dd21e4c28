// Reading a person's request: which app to build (kind, name, subject, colours, sections) or
// which changes to make to the current one. Pure and deterministic.
import { appNameFromIdea, PHRASE_END } from '@kiln/domain';
import { titleCase } from './code.js';
import { COLOUR_NAMES, DEFAULT_THEME, normaliseHex, type FontChoice, type Theme } from './palette.js';

export const APP_KINDS = [
  'landing',
  'todo',
  'dashboard',
  'blog',
  'portfolio',
  'calculator',
  'contact-form',
  'signup-form',
  'pricing',
  'notes',
  'recipes',
  'weather',
  'kanban',
  'expenses',
  'store',
  'habits',
  'standup',
] as const;
export type AppKind = (typeof APP_KINDS)[number];

export const SECTION_IDS = ['features', 'about', 'steps', 'stats', 'gallery', 'testimonials', 'team', 'pricing', 'faq', 'newsletter', 'contact', 'cta'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Words that name a section in a request for a new app (strict: "a blog about X" is no About section). */
const SECTION_WORDS: readonly [SectionId, RegExp][] = [
  ['faq', /\b(faqs?|frequently asked questions|questions and answers|q ?& ?a)\b/],
  ['testimonials', /\b(testimonials?|reviews|quotes from customers|customer quotes)\b/],
  ['pricing', /\b(pricing|prices|price list|price table|tiers)\b/],
  ['team', /\b(team section|meet the team|our team|team members|staff|founders)\b/],
  ['contact', /\b(contact|get in touch|reach us|location and hours)\b/],
  ['newsletter', /\b(newsletter|mailing list|subscribe|email signup)\b/],
  ['gallery', /\b(gallery|galleries|photo section|photos section|image section)\b/],
  ['stats', /\b(stats|statistics|key numbers|numbers section|metrics section)\b/],
  ['about', /\b(about (us|me|section)|our story|who we are|bio)\b/],
  ['features', /\b(features|benefits|services|what we offer)\b/],
  ['steps', /\b(how it works|steps section|our process)\b/],
  ['cta', /\b(call to action|cta|sign-?up banner)\b/],
];

/** Extra words an edit may use for a section ("remove the team", "add some photos"). */
const LOOSE_SECTION_WORDS: readonly [SectionId, RegExp][] = [
  ['team', /\bteam\b/],
  ['about', /\babout\b/],
  ['stats', /\b(numbers|metrics)\b/],
  ['gallery', /\b(photos|pictures|images)\b/],
  ['steps', /\b(steps|process)\b/],
  ['testimonials', /\breview\b/],
  ['faq', /\bquestions\b/],
];

export const SECTION_LABELS: Readonly<Record<SectionId, string>> = Object.freeze({
  features: 'Features',
  about: 'About',
  steps: 'How it works',
  stats: 'Numbers',
  gallery: 'Gallery',
  testimonials: 'Testimonials',
  team: 'Team',
  pricing: 'Pricing',
  faq: 'FAQ',
  newsletter: 'Newsletter',
  contact: 'Contact',
  cta: 'Get started',
});

/** The component that renders a section in generated apps. */
export const SECTION_COMPONENTS: Readonly<Record<SectionId, string>> = Object.freeze({
  features: 'Features',
  about: 'About',
  steps: 'Steps',
  stats: 'Stats',
  gallery: 'Gallery',
  testimonials: 'Testimonials',
  team: 'Team',
  pricing: 'Pricing',
  faq: 'Faq',
  newsletter: 'Newsletter',
  contact: 'Contact',
  cta: 'CallToAction',
});

/** Sections a text names, in SECTION_IDS order; `loose` also reads the short words edits use. */
export function sectionsMentioned(text: string, loose = false): SectionId[] {
  const lower = text.toLowerCase();
  const patterns = loose ? [...SECTION_WORDS, ...LOOSE_SECTION_WORDS] : SECTION_WORDS;
  return SECTION_IDS.filter((id) => patterns.some(([sid, pattern]) => sid === id && pattern.test(lower)));
}

/** How strongly each phrase points at a kind: 3 names the app, 2 suggests it, 1 hints. */
const KIND_SIGNALS: readonly [AppKind, RegExp, number][] = [
  ['landing', /\b(landing page|landing|home ?page|marketing (page|site)|one-?page(r)?)\b/, 3],
  ['landing', /\b(website|web site|site)\b/, 2],
  ['landing', /\b(startup|saas|product launch|business|agency|company)\b/, 1],
  ['todo', /\b(to-?do|todos|task list|checklist|task tracker|task manager|tasks app)\b/, 3],
  ['todo', /\b(tasks|chores|errands|reminders)\b/, 1],
  ['todo', /\b(shopping list|grocery list|groceries list|packing list)\b/, 3],
  ['habits', /\b(habit tracker|habits?|daily routine|streaks?)\b/, 3],
  ['standup', /\b(stand-?ups?|daily updates|status updates|blockers|daily check-?ins?)\b/, 3],
  ['kanban', /\b(kanban|trello|task board|scrum board|project board|sprint board)\b/, 4],
  ['dashboard', /\b(dashboard|admin panel|admin page|analytics|kpis?|control panel)\b/, 3],
  ['dashboard', /\b(metrics|reports|charts?|sales overview)\b/, 1],
  ['blog', /\b(blog|articles|posts|journal site|magazine)\b/, 3],
  ['portfolio', /\b(portfolio|personal (site|website|page)|resume|cv|my work|showcase)\b/, 3],
  ['calculator', /\b(calculator|calc|arithmetic)\b/, 4],
  ['contact-form', /\b(contact form|feedback form|enquiry form|inquiry form|support form|survey|questionnaire|rsvp)\b/, 4],
  ['contact-form', /\b(form)\b/, 2],
  ['signup-form', /\b(sign[- ]?up (form|page)|registration( form)?|register (form|page)|waitlist|wait list|create (an )?account (form|page)|join form)\b/, 5],
  ['pricing', /\b(pricing (page|table)|plans page|subscription (tiers|plans)|price (page|table))\b/, 4],
  ['pricing', /\b(pricing)\b/, 1],
  ['notes', /\b(notes? app|note-?taking|notepad|notes|memo|scratchpad)\b/, 3],
  ['recipes', /\b(recipes?|cookbook|meal planner|meals)\b/, 3],
  ['weather', /\b(weather|forecast)\b/, 4],
  ['expenses', /\b(expenses?|budget|spending|finance tracker|money tracker|bills)\b/, 3],
  ['store', /\b(online (store|shop)|e-?commerce|shopping cart|storefront|product catalog|web ?shop|merch store)\b/, 4],
  ['store', /\b(store|shop|products|cart|catalog)\b/, 1],
];

export interface KindGuess {
  readonly kind: AppKind;
  /** The strongest signal found: 0 when nothing matched (the landing page default). */
  readonly strength: number;
}

/**
 * The kind a prompt names. The words before "with", "that", "where" or "which" name the app
 * ("a portfolio site … with … a contact form" is a portfolio); the rest lists its features and
 * decides only when the head names no kind.
 */
export function guessKind(prompt: string): KindGuess {
  const head = /^(.*?)\s+(?:with|that|where|which|so that|to help)\s/i.exec(prompt)?.[1];
  if (head !== undefined) {
    const first = scoreKind(head);
    if (first.strength >= 2) return first;
  }
  return scoreKind(prompt);
}

function scoreKind(prompt: string): KindGuess {
  const lower = prompt.toLowerCase();
  const scores = new Map<AppKind, number>();
  for (const [kind, pattern, weight] of KIND_SIGNALS) {
    if (pattern.test(lower)) scores.set(kind, Math.max(scores.get(kind) ?? 0, weight));
  }
  let best: KindGuess = { kind: 'landing', strength: 0 };
  for (const kind of APP_KINDS) {
    const score = scores.get(kind) ?? 0;
    if (score > best.strength) best = { kind, strength: score };
  }
  return best;
}

const STOP = PHRASE_END;

const KIND_NOUNS = /\b(landing page|landing|website|web site|site|home ?page|app|application|page|dashboard|blog|portfolio|tool|widget|form|calculator|tracker|board)\b/gi;

/** What the app is for ("for a coffee shop" → 'coffee shop'), if the prompt says. */
export function extractSubject(prompt: string): string | null {
  const patterns = [
    new RegExp(`\\bfor\\s+(?:a|an|my|our|the|your)?\\s*([A-Za-z][A-Za-z0-9'&\\- ]{1,48}?)${STOP}`, 'i'),
    new RegExp(`\\babout\\s+(?:a|an|my|our|the)?\\s*([A-Za-z][A-Za-z0-9'&\\- ]{1,48}?)${STOP}`, 'i'),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(prompt);
    if (!match) continue;
    const subject = (match[1] as string).replace(KIND_NOUNS, '').replace(/\s+/g, ' ').trim();
    if (subject.length >= 2 && !/^(me|us|it|them|people|everyone|free)$/i.test(subject)) return subject.toLowerCase();
  }
  return null;
}

const COLOUR_WORDS = new RegExp(`\\b(${Object.keys(COLOUR_NAMES).join('|')})\\b`, 'gi');

/** Colours named in a text, in order: words (green, navy, …) and hex codes (#0ea5e9). */
export function coloursMentioned(text: string): string[] {
  const found: { at: number; hex: string }[] = [];
  for (const match of text.matchAll(COLOUR_WORDS)) {
    const word = (match[1] as string).toLowerCase();
    // "coffee" is a colour only when it is said to be one.
    if (word === 'coffee' && !/coffee[- ](colou?r|brown|tones?)/i.test(text)) continue;
    found.push({ at: match.index ?? 0, hex: COLOUR_NAMES[word] as string });
  }
  for (const match of text.matchAll(/#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/gi)) {
    const hex = normaliseHex(match[0]);
    if (hex) found.push({ at: match.index ?? 0, hex });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.hex);
}

export function wantsDark(text: string): boolean | null {
  const lower = text.toLowerCase();
  if (/\b(light (mode|theme|colou?rs?|background)|make it light(er)?|white background|bright theme)\b/.test(lower)) return false;
  if (/\b(dark (mode|theme|colou?rs?|background|look|ui)|make it dark(er)?|darker|night mode|dark)\b/.test(lower)) return true;
  return null;
}

export function fontMentioned(text: string): FontChoice | null {
  const lower = text.toLowerCase();
  if (/\b(monospace|mono|code font|typewriter)\b/.test(lower)) return 'mono';
  if (/\bsans[- ]?serif\b/.test(lower)) return 'sans';
  if (/\b(serif|elegant font|classic font)\b/.test(lower)) return 'serif';
  if (/\b(rounded font|friendly font|playful font)\b/.test(lower)) return 'rounded';
  return null;
}

export interface AppSpec {
  readonly kind: AppKind;
  readonly name: string;
  /** What the app is about, lower case ('coffee shop'); null when the prompt does not say. */
  readonly subject: string | null;
  /** Sections asked for, beyond the kind's own. */
  readonly sections: readonly SectionId[];
  readonly theme: Theme;
  /** The prompt asked for colours, a dark look or a font (a theme task is planned). */
  readonly themed: boolean;
  /** Seeds every choice: the same prompt always makes the same app. */
  readonly seed: number;
}

export const DEFAULT_NAMES: Readonly<Record<AppKind, string>> = Object.freeze({
  landing: 'Northwind',
  todo: 'Todo List',
  dashboard: 'Dashboard',
  blog: 'The Blog',
  portfolio: 'Portfolio',
  calculator: 'Calculator',
  'contact-form': 'Contact Us',
  'signup-form': 'Create Your Account',
  pricing: 'Pricing',
  notes: 'Notes',
  recipes: 'Recipe Box',
  weather: 'Weather',
  kanban: 'Project Board',
  expenses: 'Expense Tracker',
  store: 'Shop',
  habits: 'Habit Tracker',
  standup: 'Standups',
});

const KIND_SUFFIX: Readonly<Partial<Record<AppKind, string>>> = Object.freeze({
  todo: 'Tasks',
  dashboard: 'Dashboard',
  blog: 'Journal',
  notes: 'Notes',
  recipes: 'Recipes',
  kanban: 'Board',
  expenses: 'Budget',
  weather: 'Weather',
  calculator: 'Calculator',
  habits: 'Habits',
  standup: 'Standups',
});

export function parseAppSpec(prompt: string, seed: number): AppSpec {
  const { kind } = guessKind(prompt);
  const subject = extractSubject(prompt);
  const given = appNameFromIdea(prompt);
  const fromSubject = subject ? titleCase(subject) + (KIND_SUFFIX[kind] && !subject.toLowerCase().includes((KIND_SUFFIX[kind] as string).toLowerCase()) ? ` ${KIND_SUFFIX[kind]}` : '') : null;
  const name = given ?? fromSubject ?? DEFAULT_NAMES[kind];
  const colours = coloursMentioned(prompt.replace(/\bcoffee shop\b/gi, ''));
  const dark = wantsDark(prompt);
  const font = fontMentioned(prompt);
  const backgroundWord = /\bbackground\b/i.test(prompt);
  const primary = colours.find((c) => c !== '#ffffff' && c !== '#111827') ?? (colours.length > 0 && !backgroundWord ? colours[0] : undefined);
  const theme: Theme = {
    ...DEFAULT_THEME,
    ...(primary ? { primary } : {}),
    dark: dark ?? (backgroundWord && colours.includes('#111827')),
    ...(font ? { font } : {}),
  };
  // The kind's own phrase ("pricing page", "contact form") is not an extra section.
  const ownSection: Partial<Record<AppKind, SectionId>> = { pricing: 'pricing', 'contact-form': 'contact', portfolio: 'about' };
  const sections = sectionsMentioned(prompt.replace(/\b(landing page|home ?page)\b/gi, '')).filter((s) => s !== ownSection[kind]);
  return { kind, name, subject, sections, theme, themed: primary !== undefined || dark !== null || font !== null, seed };
}
