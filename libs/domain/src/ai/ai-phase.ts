/**
 * SPEC §4 AI phase: what the assistant is doing during a turn, and the builder state it drives.
 *
 * - idle clears the querying and executing flags; thinking and fetching set querying; building
 *   sets executing (SPEC §3 builder flags "AI queried" and "task executing").
 * - A non-idle phase starts the dot animation; idle stops it.
 * - The status line reads 'Analyzing your request' (thinking), 'Gathering project details'
 *   (fetching) or 'Building your app' (building), followed by dots cycling every 500 ms
 *   (SPEC §2, §9 "AI dots 500 ms").
 *
 * Pure: the caller owns the timer and counts its ticks.
 */

export const AI_PHASES = ['idle', 'thinking', 'fetching', 'building'] as const;
export type AiPhase = (typeof AI_PHASES)[number];

/** SPEC §9: the status line's dots move on every this many milliseconds. */
export const AI_DOTS_INTERVAL_MS = 500;
/** The dots shown, in turn, one per tick: '.', '..', '...', then again. */
export const AI_DOTS_FRAMES: readonly string[] = Object.freeze(['.', '..', '...']);

/** SPEC §2: the status line's words for each working phase (idle shows none). */
export const AI_PHASE_LABELS: Readonly<Record<Exclude<AiPhase, 'idle'>, string>> = Object.freeze({
  thinking: 'Analyzing your request',
  fetching: 'Gathering project details',
  building: 'Building your app',
});

/** The builder's flags that follow the AI phase. */
export interface AiActivity {
  readonly phase: AiPhase;
  /** SPEC §3 "AI queried": the assistant is being asked (thinking or fetching). */
  readonly querying: boolean;
  /** SPEC §3 "task executing": the assistant is changing the project (building). */
  readonly executing: boolean;
  /** The status line's dots are moving. */
  readonly animating: boolean;
}

export const IDLE_AI_ACTIVITY: AiActivity = Object.freeze({ phase: 'idle', querying: false, executing: false, animating: false });

export function isAiPhase(value: unknown): value is AiPhase {
  return typeof value === 'string' && (AI_PHASES as readonly string[]).includes(value);
}

/**
 * The activity after the assistant enters `phase`. Flags a phase does not mention are kept
 * (building after thinking still counts as queried) until idle clears both.
 */
export function applyAiPhase(activity: AiActivity, phase: AiPhase): AiActivity {
  switch (phase) {
    case 'idle':
      return IDLE_AI_ACTIVITY;
    case 'thinking':
    case 'fetching':
      return Object.freeze({ phase, querying: true, executing: activity.executing, animating: true });
    case 'building':
      return Object.freeze({ phase, querying: activity.querying, executing: true, animating: true });
  }
}

/** The status line's words for `phase`; null when idle (nothing is shown). */
export function aiPhaseLabel(phase: AiPhase): string | null {
  return phase === 'idle' ? null : AI_PHASE_LABELS[phase];
}

/** The dots after `tick` ticks of the 500 ms timer (0 = just started). Negative ticks count as 0. */
export function aiDots(tick: number): string {
  const n = Number.isFinite(tick) && tick > 0 ? Math.floor(tick) : 0;
  return AI_DOTS_FRAMES[n % AI_DOTS_FRAMES.length] as string;
}

/** The whole status line, e.g. 'Building your app..'; '' when idle. */
export function aiStatusText(phase: AiPhase, tick: number): string {
  const label = aiPhaseLabel(phase);
  return label === null ? '' : `${label}${aiDots(tick)}`;
}
