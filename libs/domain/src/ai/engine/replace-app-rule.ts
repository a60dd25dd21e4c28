import type { AiFailure, AiPlan } from '../ai-assistant.port.js';
import type { Turn } from './turn.entity.js';

/**
 * Issue #14: a plan that makes a new app (kind 'build') on a project that already has one would
 * replace its pages, theme and text. The turn engine enforces, whatever model answered:
 * - the project has no app yet → the plan runs as planned;
 * - the person asked for a new app in so many words (asksForNewApp) → the plan always waits for
 *   approval (even with auto-run), marked `replacesApp`, so the builder warns before it runs;
 * - otherwise → the turn is declined (AI.DECLINED): nothing charged, nothing changed.
 */
export type ReplaceAppDecision = 'run' | 'confirm' | 'decline';

/**
 * A project "has an app" once a turn of it was kept with a version (a commit): the starter alone,
 * turns that were reverted, failed or changed nothing do not count. The turn store is the
 * engine's own record, so the rule does not depend on how a sandbox lays out its files.
 */
export function hasApp(earlierTurns: readonly Pick<Turn, 'status' | 'commitHash'>[]): boolean {
  return earlierTurns.some((t) => t.status === 'kept' && t.commitHash !== null);
}

// Words that say "a new app" outright. Conservative on purpose: a miss is declined free (the
// person can say it again plainly), a hit still needs the person's confirmation.
const NEW_APP_PHRASES: readonly RegExp[] = [
  /\bstart(ing)? (all )?(over|again|afresh|from scratch)\b/,
  /\bfrom scratch\b/,
  /\b(a |an )?(brand[- ]new|new|different|another|fresh|separate) (web )?(app|application|site|website)\b/,
  /\b(replace|rebuild|redo|rewrite|recreate|scrap|discard|throw away|wipe|reset) (the |my |this |our )?(whole |entire |current |existing )?(app|application|site|website|project)\b/,
  /\b(make|build|create|generate) (the |my |this )?(whole |entire )?(app|application|site|website) (again|anew|over)\b/,
];

// A negation just before the phrase ("don't start over", "not a new app", "without replacing").
const NEGATION = /\b(don'?t|do not|never|not|no|without|instead of|rather than)\s+(\w+\s+){0,2}$/;

/** True when the message asks, in so many words, for a new app (the rule is on the words only). */
export function asksForNewApp(message: string): boolean {
  const text = message.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ');
  for (const phrase of NEW_APP_PHRASES) {
    const global = new RegExp(phrase.source, 'g');
    for (let match = global.exec(text); match !== null; match = global.exec(text)) {
      if (!NEGATION.test(text.slice(0, match.index))) return true;
    }
  }
  return false;
}

/** What the engine does with a plan (see the type). */
export function replaceAppDecision(plan: Pick<AiPlan, 'kind'>, projectHasApp: boolean, message: string): ReplaceAppDecision {
  if (plan.kind !== 'build' || !projectHasApp) return 'run';
  return asksForNewApp(message) ? 'confirm' : 'decline';
}

/** The honest answer to an edit that would have replaced the app (nothing was charged). */
export const CANNOT_EDIT_AS_NEW_APP =
  "I can't do that as an edit of your app yet: it would make a new app and replace this one. " +
  'I can add pages, sections, forms, lists and buttons, change the text, colours and theme, or fix errors — ' +
  'try asking for one of those. If you do want to start over, say "start over with a new app".';

export const declinedReplaceApp = (): AiFailure => ({ code: 'AI.DECLINED', message: CANNOT_EDIT_AS_NEW_APP });

/** What the builder shows above a plan that replaces the app. */
export const REPLACES_APP_WARNING = 'This replaces your current app (its pages, theme and text). Continue?';
