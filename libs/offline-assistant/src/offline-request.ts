// Deciding what a request means for the current project: build a new app, change this one, or
// something the offline assistant cannot do.
import { hashText } from './code.js';
import { parseEdits, type EditIntent } from './edit-intent.js';
import { appNameFromIdea } from '@kiln/domain';
import { guessKind, parseAppSpec, type AppSpec } from './intent.js';

export type OfflineRequest =
  | { readonly mode: 'build'; readonly spec: AppSpec }
  | { readonly mode: 'edit'; readonly intents: readonly EditIntent[]; readonly unknown: readonly string[] }
  | { readonly mode: 'unknown'; readonly unknown: readonly string[] };

const STARTER_MARKER = 'Welcome to your Kiln app';
const EDIT_FIRST = /^\s*(?:please\s+|can you\s+|could you\s+|now\s+)?(add|remove|delete|change|rename|replace|set|use|switch|turn|update|drop|hide|put|include|swap|call it|name it|make it|make the)\b/i;
const BUILD_VERB = /\b(build|create|make|generate|design|develop|start|scaffold|want|need|like|give me|set up|write|a|an)\b/i;
/** Words that describe a whole app ("a habit tracker called Streaks", "a game for kids"). */
const DESCRIBES_AN_APP = /\b(app|application|tracker|tool|planner|manager|organi[sz]er|game|platform|portal|website|web site|site|page|widget|log|diary)\b/i;

/** A project that still holds the starter template (or nothing): any request builds an app. */
export function isFreshProject(files: ReadonlyMap<string, string>): boolean {
  if (files.has('src/site.ts') || files.has('src/routes.tsx')) return false;
  const app = files.get('src/App.tsx');
  return app === undefined || app.includes(STARTER_MARKER);
}

export function seedOf(prompt: string): number {
  return hashText(prompt.trim().toLowerCase());
}

export function readRequest(prompt: string, files: ReadonlyMap<string, string>): OfflineRequest {
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
