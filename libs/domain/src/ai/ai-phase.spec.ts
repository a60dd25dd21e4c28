import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  AI_DOTS_FRAMES,
  AI_DOTS_INTERVAL_MS,
  AI_PHASES,
  type AiActivity,
  type AiPhase,
  IDLE_AI_ACTIVITY,
  aiDots,
  aiPhaseLabel,
  aiStatusText,
  applyAiPhase,
  isAiPhase,
} from './ai-phase.js';

const phase = fc.constantFrom(...AI_PHASES);
const replay = (phases: readonly AiPhase[]): AiActivity => phases.reduce(applyAiPhase, IDLE_AI_ACTIVITY);

describe('AI phase (SPEC §4)', () => {
  it('labels the working phases with the SPEC words and shows nothing when idle', () => {
    expect(aiPhaseLabel('thinking')).toBe('Analyzing your request');
    expect(aiPhaseLabel('fetching')).toBe('Gathering project details');
    expect(aiPhaseLabel('building')).toBe('Building your app');
    expect(aiPhaseLabel('idle')).toBeNull();
  });

  it('thinking and fetching set querying, building sets executing, idle clears both', () => {
    expect(applyAiPhase(IDLE_AI_ACTIVITY, 'thinking')).toEqual({ phase: 'thinking', querying: true, executing: false, animating: true });
    expect(applyAiPhase(IDLE_AI_ACTIVITY, 'fetching')).toEqual({ phase: 'fetching', querying: true, executing: false, animating: true });
    expect(applyAiPhase(IDLE_AI_ACTIVITY, 'building')).toEqual({ phase: 'building', querying: false, executing: true, animating: true });
    expect(replay(['thinking', 'building'])).toEqual({ phase: 'building', querying: true, executing: true, animating: true });
    expect(replay(['thinking', 'building', 'idle'])).toEqual(IDLE_AI_ACTIVITY);
  });

  it('cycles the dots every 500 ms: ., .., ..., then again', () => {
    expect(AI_DOTS_INTERVAL_MS).toBe(500);
    expect([0, 1, 2, 3, 4].map(aiDots)).toEqual(['.', '..', '...', '.', '..']);
    expect(aiDots(-3)).toBe('.');
    expect(aiDots(Number.NaN)).toBe('.');
    expect(aiStatusText('building', 2)).toBe('Building your app...');
    expect(aiStatusText('idle', 2)).toBe('');
  });

  it('reads phases from the wire and refuses anything else', () => {
    expect(AI_PHASES.every(isAiPhase)).toBe(true);
    expect(['', 'Idle', 'done', null, 3, undefined].some(isAiPhase)).toBe(false);
  });
});

describe('AI phase properties', () => {
  it('after any sequence, the flags follow the rules of the last phase', () => {
    fc.assert(
      fc.property(fc.array(phase, { maxLength: 30 }), (phases) => {
        const activity = replay(phases);
        const last = phases.at(-1) ?? 'idle';
        expect(activity.phase).toBe(last);
        // Non-idle animates, idle does not.
        expect(activity.animating).toBe(last !== 'idle');
        if (last === 'idle') {
          expect(activity.querying).toBe(false);
          expect(activity.executing).toBe(false);
        }
        if (last === 'thinking' || last === 'fetching') expect(activity.querying).toBe(true);
        if (last === 'building') expect(activity.executing).toBe(true);
      }),
    );
  });

  it('a flag is on exactly when its phase happened since the last idle', () => {
    fc.assert(
      fc.property(fc.array(phase, { maxLength: 30 }), (phases) => {
        const activity = replay(phases);
        const sinceIdle = phases.slice(phases.lastIndexOf('idle') + 1);
        expect(activity.querying).toBe(sinceIdle.some((p) => p === 'thinking' || p === 'fetching'));
        expect(activity.executing).toBe(sinceIdle.includes('building'));
      }),
    );
  });

  it('the dots repeat with the frame count as period and are never empty', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), (tick) => {
        expect(aiDots(tick + AI_DOTS_FRAMES.length)).toBe(aiDots(tick));
        expect(aiDots(tick)).toMatch(/^\.{1,3}$/);
      }),
    );
  });
});
