import { describe, expect, it } from '@jest/globals';
import type { FeedState } from '../../api/sandbox-feed';
import { INITIAL_FEED_HEALTH, UNREACHABLE_AFTER_FAILURES, connectionProblem, nextFeedHealth } from './connection-status';

const after = (...states: FeedState[]) => states.reduce(nextFeedHealth, INITIAL_FEED_HEALTH);

describe('the status line and the feed', () => {
  it('says nothing while the feed is open or making its first attempt', () => {
    expect(connectionProblem(after('connecting'))).toBeNull();
    expect(connectionProblem(after('connecting', 'open'))).toBeNull();
  });

  it('reconnecting after a drop, or after a first attempt that failed', () => {
    expect(connectionProblem(after('connecting', 'open', 'closed'))?.label).toBe('Reconnecting…');
    expect(connectionProblem(after('connecting', 'open', 'closed', 'connecting'))?.tone).toBe('warning');
    expect(connectionProblem(after('connecting', 'closed', 'connecting'))?.label).toBe('Reconnecting…');
  });

  it(`unreachable after ${UNREACHABLE_AFTER_FAILURES} failed attempts in a row; an open feed clears it`, () => {
    const down = after('connecting', 'open', 'closed', 'connecting', 'closed', 'connecting', 'closed', 'connecting');
    expect(connectionProblem(down)).toMatchObject({ label: 'Server unreachable', tone: 'destructive' });
    expect(connectionProblem(nextFeedHealth(down, 'open'))).toBeNull();
    expect(nextFeedHealth(down, 'open').failures).toBe(0);
  });

  it('a repeated closed state is one failure', () => {
    expect(after('connecting', 'open', 'closed', 'closed').failures).toBe(1);
  });
});
