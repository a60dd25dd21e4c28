/**
 * Where a phrase of an app idea ends: punctuation, the end, or a word that starts the next part
 * ("…called Streaks with a dark theme"). A regular-expression source, for lookaheads.
 */
export const PHRASE_END = '(?=$|[.,!?;:\\n]|\\s+(?:for|with|that|which|and|where|using|in|to|about|called|named|featuring|including|plus|on|so|but)\\b)';

const NAMED = new RegExp(`\\b(?:called|named|titled|name it|call it|brand(?:ed)? as)\\s+["“'‘]?([^"”’\\n.,!?;:]+?)["”'’]?${PHRASE_END}`, 'i');
const QUOTED = /["“]([^"”\n]{2,60})["”]/;

/**
 * The name a person gives the app in an idea, if any ("called Bean There", “Bean There”), first
 * letter capitalised, at most 60 characters. The assistant names the app with it and the new
 * project takes it, so both agree.
 */
export function appNameFromIdea(idea: string): string | null {
  const raw = NAMED.exec(idea)?.[1] ?? QUOTED.exec(idea)?.[1] ?? null;
  if (raw === null) return null;
  const name = raw.trim().replace(/\s+/g, ' ').slice(0, 60);
  if (name.length === 0) return null;
  return name.charAt(0).toUpperCase() + name.slice(1);
}
