import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { FakeAnalyticsApi, activityDay } from '../../testing/analytics-fakes';
import { RecordingLogger } from '../../testing/ui-fakes';
import { SiteActivityVm } from './site-activity.vm';

function setup() {
  const api = new FakeAnalyticsApi();
  const logger = new RecordingLogger();
  return { api, logger, vm: new SiteActivityVm(api, logger) };
}

describe('SiteActivityVm (operators’ chart)', () => {
  it('loads the last 30 days by default, with totals and a chart', async () => {
    const { api, vm } = setup();
    api.activity = async () => [activityDay('2026-11-25', 3, 1, 2), activityDay('2026-11-26', 7, 0, 5)];
    expect(vm.status).toBe('loading');
    await vm.load();
    expect(api.activityCalls).toEqual([30]);
    expect(vm.status).toBe('ready');
    expect(vm.totals).toEqual({ page_views: 10, signups: 1, prompts: 7 });
    expect(vm.chart.top).toBe(10);
    expect(vm.chart.lines.map((l) => l.points.split(' ').length)).toEqual([2, 2, 2]);
  });

  it('switches range; an older answer arriving late does not overwrite a newer one', async () => {
    const { api, vm } = setup();
    let releaseSlow: () => void = () => undefined;
    api.activity = (days) =>
      days === 7 ? new Promise((resolve) => (releaseSlow = () => resolve([activityDay('old')]))) : Promise.resolve([activityDay('new-1'), activityDay('new-2')]);
    const slow = vm.load(7);
    await vm.load(90);
    releaseSlow();
    await slow;
    expect(vm.range).toBe(90);
    expect(vm.days.map((d) => d.day)).toEqual(['new-1', 'new-2']);
  });

  it('tells a non-operator the page is for operators (403), without logging', async () => {
    const { api, logger, vm } = setup();
    api.activity = async () => {
      throw new ApiError('Only operators can see site activity', 403, 'ANALYTICS.NOT_AN_OPERATOR', null);
    };
    await vm.load();
    expect(vm.status).toBe('forbidden');
    expect(logger.lines).toEqual([]);
  });

  it('shows an error and logs it when the API fails', async () => {
    const { api, logger, vm } = setup();
    api.activity = async () => {
      throw new ApiError('Service unavailable', 503, null, null);
    };
    await vm.load();
    expect(vm.status).toBe('error');
    expect(logger.lines).toEqual(['warn: Site activity could not be loaded']);
  });
});
