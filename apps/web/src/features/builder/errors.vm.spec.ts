import { describe, expect, it } from '@jest/globals';
import type { FindErrorsDto, SandboxApi } from '../../api/sandbox.api';
import { SteppedTimers } from '../../testing/billing-fakes';
import { RecordingLogger } from '../../testing/ui-fakes';
import { AUTO_CHECK_DELAY_MS, CHECK_REQUEST_FAILED, ErrorsVm } from './errors.vm';

const broken: FindErrorsDto = {
  errors: [{ message: "Cannot find name 'foo'.", file: 'src/App.tsx', line: 3, column: 7, severity: 'error' }],
  error_count: 1,
  warning_count: 0,
  status: 'checked',
};
const clean: FindErrorsDto = { errors: [], error_count: 0, warning_count: 0, status: 'checked' };

/** find-errors answered by the test: each call waits until `answer` (or `fail`) settles it. */
class HeldFindErrors {
  calls = 0;
  private pending: { resolve: (dto: FindErrorsDto) => void; reject: (e: Error) => void }[] = [];
  readonly api = {
    findErrors: () => {
      this.calls += 1;
      return new Promise<FindErrorsDto>((resolve, reject) => this.pending.push({ resolve, reject }));
    },
  } as unknown as SandboxApi;

  get waiting(): number {
    return this.pending.length;
  }

  async answer(dto: FindErrorsDto): Promise<void> {
    this.pending.shift()?.resolve(dto);
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
  }

  async fail(): Promise<void> {
    this.pending.shift()?.reject(new Error('down'));
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
  }
}

function setUp() {
  const held = new HeldFindErrors();
  const timers = new SteppedTimers();
  const vm = new ErrorsVm(held.api, new RecordingLogger(), timers);
  vm.setProject('p1');
  return { held, timers, vm };
}

describe('ErrorsVm follows file changes on its own', () => {
  it('checks again once changes settle: a burst of changes costs one check', async () => {
    const { held, timers, vm } = setUp();
    vm.setScan({ errors: [], errorCount: 0, warningCount: 0 }); // "0 errors" while the preview shows one
    vm.onFilesChanged();
    await timers.advance(AUTO_CHECK_DELAY_MS - 100);
    vm.onFilesChanged(); // a newer change restarts the wait
    await timers.advance(AUTO_CHECK_DELAY_MS - 100);
    vm.onFilesChanged();
    expect(held.calls).toBe(0);
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(1);
    expect(vm.checking).toBe(true);
    await held.answer(broken);
    expect([vm.errorCount, vm.hasCounts, vm.noProblems]).toEqual([1, true, false]);
  });

  it('runs one check at a time; a change during a check queues exactly one more, which sees the fix', async () => {
    const { held, timers, vm } = setUp();
    vm.onFilesChanged();
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(1);
    // The fix lands while the first check runs: no second request in parallel.
    vm.onFilesChanged();
    await timers.advance(AUTO_CHECK_DELAY_MS);
    vm.onFilesChanged();
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(1);
    await held.answer(broken);
    expect(vm.errorCount).toBe(1);
    // The queued re-check follows after the delay.
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(2);
    await held.answer(clean);
    expect([vm.errorCount, vm.noProblems]).toEqual([0, true]);
    await timers.advance(AUTO_CHECK_DELAY_MS * 3);
    expect(held.calls).toBe(2);
  });

  it('the manual check and the automatic one never overlap', async () => {
    const { held, timers, vm } = setUp();
    void vm.check();
    vm.onFilesChanged();
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(1);
    await held.answer(clean);
    await timers.advance(AUTO_CHECK_DELAY_MS);
    expect(held.calls).toBe(2);
  });

  it('drops waiting re-checks when the builder closes or switches project', async () => {
    const { held, timers, vm } = setUp();
    vm.onFilesChanged();
    vm.stop();
    await timers.advance(AUTO_CHECK_DELAY_MS * 2);
    expect(held.calls).toBe(0);
    vm.onFilesChanged();
    vm.setProject('p2');
    await timers.advance(AUTO_CHECK_DELAY_MS * 2);
    expect(held.calls).toBe(0);
  });
});

describe('ErrorsVm never says "No problems found" for a check that did not run', () => {
  it("shows the server's reason when the check could not run (zero counts are no answer)", async () => {
    const { held, vm } = setUp();
    void vm.check();
    await held.answer({ errors: [], error_count: 0, warning_count: 0, status: 'unavailable', unavailable_reason: 'Type-checking did not finish within 60 s.' });
    expect(vm.notCheckedMessage).toBe('The check could not run: Type-checking did not finish within 60 s.');
    expect([vm.hasCounts, vm.noProblems]).toEqual([false, false]);
  });

  it('says so when the request failed, and a later check that ran clears it', async () => {
    const { held, vm } = setUp();
    void vm.check();
    await held.fail();
    expect(vm.notCheckedMessage).toBe(CHECK_REQUEST_FAILED);
    expect(vm.noProblems).toBe(false);
    void vm.check();
    await held.answer(clean);
    expect([vm.notCheckedMessage, vm.noProblems]).toEqual([null, true]);
  });

  it('an older server without status is a check that ran', async () => {
    const { held, vm } = setUp();
    void vm.check();
    await held.answer({ errors: [], error_count: 0, warning_count: 0 });
    expect([vm.notCheckedMessage, vm.noProblems]).toEqual([null, true]);
  });
});
