// Deciding what a request means for the current project: build a new app, change this one, or
// something the offline assistant cannot do.
import { hashText } from './code.js';
import { parseEdits, type EditIntent } from './edit-intent.js';
import { appNameFromIdea, splitAttachments, splitSelectedElement, type SelectedElement } from '@kiln/domain';
import { asksAboutAttachedImage, useAttachedImages } from './attached-images.js';
import { guessKind, parseAppSpec, type AppSpec } from './intent.js';
import { keepToSelection, pointAtSelection } from './selection.js';

export type OfflineRequest =
  | { readonly mode: 'build'; readonly spec: AppSpec }
  | { readonly mode: 'edit'; readonly intents: readonly EditIntent[]; readonly unknown: readonly string[] }
  | { readonly mode: 'unknown'; readonly unknown: readonly string[] };

const STARTER_MARKER = 'Welcome to your Kiln app';
const EDIT_FIRST = /^\s*(?:please\s+|can you\s+|could you\s+|now\s+)?(add|remove|delete|change|rename|replace|set|use|switch|turn|update|drop|hide|put|include|swap|call it|name it|make it|make the)\b/i;
const BUILD_VERB = /\b(build|create|make|generate|design|develop|start|scaffold|want|need|like|give me|set up|write|a|an)\b/i;
/** Words that describe a whole app ("a habit tracker called Streaks", "a game for kids"). */
const DESCRIBES_AN_APP = /\b(app|application|tracker|tool|planner|manager|organi[sz]er|game|platform|portal|website|web site|site|page|widget|log|diary)\b/i;

const IDEA_START = /^\s*(?:please\s+)?(?:a|an|my|build|create|make|generate|design|develop|i want|i need|i'd like|give me|set up)\b/i;

/** Whether a prompt describes an app to build ("A habit tracker …", "Build a blog …"), not a change. */
export function describesAnApp(prompt: string): boolean {
  return !EDIT_FIRST.test(prompt) && (IDEA_START.test(prompt) || DESCRIBES_AN_APP.test(prompt));
}

/** A project that still holds the starter template (or nothing): any request builds an app. */
export function isFreshProject(files: ReadonlyMap<string, string>): boolean {
  if (files.has('src/site.ts') || files.has('src/routes.tsx')) return false;
  const app = files.get('src/App.tsx');
  return app === undefined || app.includes(STARTER_MARKER);
}

/**
 * A project with an app of its own: one we built (src/site.ts) or a home page that is no longer
 * the starter's. Requests on it are edits unless they ask for a new app in so many words.
 */
export function hasAppOfItsOwn(files: ReadonlyMap<string, string>): boolean {
  if (files.has('src/site.ts')) return true;
  const app = files.get('src/App.tsx');
  return app !== undefined && !app.includes(STARTER_MARKER);
}

export function seedOf(prompt: string): number {
  return hashText(prompt.trim().toLowerCase());
}

/**
 * Words that ask for a NEW app in so many words ("start over with a kanban board", "build a new
 * app for …"): only these replace an existing app.
 */
const ASKS_FOR_A_NEW_APP =
  /\b(start (over|again|afresh|from scratch)|from scratch|(?:a|an)\s+(?:brand[- ])?new\s+(?:[\w-]+\s+){0,3}(?:app|application|project|website|site|landing page|tracker|store|shop|blog|dashboard|portfolio)|(?:replace|throw away|scrap) (?:the|this|my) (?:whole |current |existing )?(?:app|site|project)|instead of this (?:app|one|site))\b/i;

/** Whether a request asks for a new app in so many words (not just describes a feature). */
export function asksForNewApp(prompt: string): boolean {
  return ASKS_FOR_A_NEW_APP.test(prompt) && !EDIT_FIRST.test(prompt);
}

/**
 * What a request means. On a project that still holds the starter, a description of an app builds
 * it. On an existing app every request is an edit of it, unless it asks for a new app in so many
 * words; a request it cannot read as an edit is 'unknown' (planning declines it), never a rebuild.
 */
export function readRequest(message: string, files: ReadonlyMap<string, string>): OfflineRequest {
  // Files attached to the message: "this" in "use this as the logo" is the first image (attached-images.ts)…
  const unpointed = splitSelectedElement(message).words;
  const aboutImage = splitAttachments(unpointed).attachments.some((a) => a.contentType.startsWith('image/')) && asksAboutAttachedImage(unpointed);
  // …otherwise, with an element picked in the preview, "this" is its text (selection.ts).
  const { prompt: pointed, element } = aboutImage ? { prompt: unpointed, element: null } : pointAtSelection(message);
  const { words: prompt, attachments } = splitAttachments(pointed);
  const request = readWords(prompt, element, files);
  return request.mode === 'edit' ? { ...request, intents: useAttachedImages(request.intents, attachments) } : request;
}

function readWords(prompt: string, element: SelectedElement | null, files: ReadonlyMap<string, string>): OfflineRequest {
  if (!hasAppOfItsOwn(files)) return readIdea(prompt, files);
  if (asksForNewApp(prompt)) return { mode: 'build', spec: parseAppSpec(prompt, seedOf(prompt)) };
  const parsed = parseEdits(prompt);
  const intents = keepToSelection(parsed.intents, element);
  return intents.length > 0 ? { mode: 'edit', intents, unknown: parsed.unknown } : { mode: 'unknown', unknown: parsed.unknown };
}

/**
 * A request read as an idea for an app (a build when it describes one), or as edits: what a
 * request on a fresh project means, and how `complete` and `enhancePrompt` read a prompt.
 */
export function readIdea(prompt: string, files: ReadonlyMap<string, string>): OfflineRequest {
  const { intents, unknown } = parseEdits(prompt);
  const guess = guessKind(prompt);
  const fresh = isFreshProject(files);
  const editFirst = EDIT_FIRST.test(prompt);
  // On a project that still holds the starter, a request that describes an app (or names one)
  // builds it, and the changes it mentions ("with a dark theme") are part of the build.
  if (fresh && !editFirst && (DESCRIBES_AN_APP.test(prompt) || appNameFromIdea(prompt) !== null)) {
    return { mode: 'build', spec: parseAppSpec(prompt, seedOf(prompt)) };
  }
  if (intents.length > 0 && (guess.strength < 3 || editFirst)) return { mode: 'edit', intents, unknown };
  if ((guess.strength >= 2 && BUILD_VERB.test(prompt) && !editFirst) || (fresh && intents.length === 0)) {
    return { mode: 'build', spec: parseAppSpec(prompt, seedOf(prompt)) };
  }
  if (intents.length > 0) return { mode: 'edit', intents, unknown };
  return { mode: 'unknown', unknown };
}
