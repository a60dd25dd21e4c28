import { beforeEach, describe, expect, it } from '@jest/globals';
import { createProfile } from '../../profiles/profile.entity.js';
import { FixedClock } from '../../testing/fixed-clock.js';
import { InMemoryDatabaseProvisioner } from '../../testing/in-memory-databases.js';
import { InMemoryProfileRepository } from '../../testing/in-memory-profile-repository.js';
import { DEFAULT_DATABASE_PLAN_LIMITS } from '../database-limits.js';
import type { DatabaseInspection } from '../database-provisioner.port.js';
import { DatabaseQuotaGuard, QUOTA_MEASURE_EVERY_MS } from './database-quota-guard.js';

const MB = 1024 * 1024;

/** Counts what the guard asks of the provider and of Kiln's profiles. */
class CountingProvisioner extends InMemoryDatabaseProvisioner {
  inspections = 0;
  override async inspect(ref: string): Promise<DatabaseInspection | null> {
    this.inspections += 1;
    return super.inspect(ref);
  }
}

class CountingProfiles extends InMemoryProfileRepository {
  lookups = 0;
  override async findById(id: string) {
    this.lookups += 1;
    return super.findById(id);
  }
}

describe('DatabaseQuotaGuard', () => {
  let clock: FixedClock;
  let profiles: CountingProfiles;
  let provisioner: CountingProvisioner;
  let guard: DatabaseQuotaGuard;
  const a = { ref: 'aaaaaaaaaaaaaaaaaaaa', ownerId: 'alice' };
  const b = { ref: 'bbbbbbbbbbbbbbbbbbbb', ownerId: 'alice' };

  const setPlan = async (plan: string) => {
    const profile = (await profiles.findById('alice'))!;
    await profiles.update({ ...profile, subscriptionPlan: plan });
  };

  beforeEach(async () => {
    clock = new FixedClock();
    profiles = new CountingProfiles();
    provisioner = new CountingProvisioner();
    await profiles.insertIfAbsent(createProfile({ id: 'alice', email: 'a@example.com', referralCode: 'AAA' }, clock.now()));
    for (const db of [a, b]) await provisioner.provision(db.ref, DEFAULT_DATABASE_PLAN_LIMITS.free);
    guard = new DatabaseQuotaGuard(profiles, provisioner, DEFAULT_DATABASE_PLAN_LIMITS, clock);
    profiles.lookups = 0;
  });

  it('refuses writes past the plan’s quota with the size and the quota, measuring at most every 30 s', async () => {
    expect(await guard.checkWrite(a)).toEqual({ ok: true, value: undefined });
    provisioner.setSize(a.ref, 101 * MB);
    expect((await guard.checkWrite(a)).ok).toBe(true); // still the size measured a moment ago
    clock.advance(QUOTA_MEASURE_EVERY_MS - 1);
    expect((await guard.checkWrite(a)).ok).toBe(true);
    clock.advance(1);
    const refused = await guard.checkWrite(a);
    expect(refused).toMatchObject({ ok: false, error: { code: 'DATABASES.QUOTA_EXCEEDED', sizeBytes: 101 * MB, quotaBytes: 100 * MB } });
    if (refused.ok) throw new Error('refused');
    expect(refused.error.message).toBe('This project’s database uses 101 MB of its 100 MB. Delete data or upgrade your plan to write more.');
    // Back under it (rows deleted): writes are allowed again at the next measure.
    provisioner.setSize(a.ref, 99 * MB);
    clock.advance(QUOTA_MEASURE_EVERY_MS);
    expect((await guard.checkWrite(a)).ok).toBe(true);
  });

  it('keeps one measure per database: one over its quota does not refuse another', async () => {
    provisioner.setSize(a.ref, 200 * MB);
    expect((await guard.checkWrite(a)).ok).toBe(false);
    expect((await guard.checkWrite(b)).ok).toBe(true);
    expect(provisioner.inspections).toBe(2);
  });

  it('looks the owner’s plan up with the size, not on every write, and sees a new plan at the next measure', async () => {
    provisioner.setSize(a.ref, 500 * MB);
    for (let i = 0; i < 50; i += 1) expect((await guard.checkWrite(a)).ok).toBe(false);
    expect(profiles.lookups).toBe(1);
    expect(provisioner.inspections).toBe(1);
    await setPlan('pro_monthly');
    profiles.lookups = 0;
    expect((await guard.checkWrite(a)).ok).toBe(false);
    clock.advance(QUOTA_MEASURE_EVERY_MS);
    expect((await guard.checkWrite(a)).ok).toBe(true); // 500 MB of the paid plan's 1,000
    expect(profiles.lookups).toBe(1);
  });

  it('measures once for many concurrent writes', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => guard.checkWrite(a)));
    expect(answers.every((x) => x.ok)).toBe(true);
    expect(provisioner.inspections).toBe(1);
    expect(profiles.lookups).toBe(1);
  });

  it('keeps the last measure when the provider is down, and is unavailable only for a database never measured', async () => {
    provisioner.setSize(a.ref, 150 * MB);
    expect((await guard.checkWrite(a)).ok).toBe(false);
    provisioner.down = true;
    clock.advance(QUOTA_MEASURE_EVERY_MS);
    expect(await guard.checkWrite(a)).toMatchObject({ ok: false, error: { code: 'DATABASES.QUOTA_EXCEEDED' } });
    expect(await guard.checkWrite(b)).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    provisioner.down = false;
    expect((await guard.checkWrite(b)).ok).toBe(true);
  });

  it('measures again after forget, and counts a database the provider no longer has as empty', async () => {
    expect((await guard.checkWrite(a)).ok).toBe(true);
    provisioner.setSize(a.ref, 150 * MB);
    guard.forget(a.ref);
    expect((await guard.checkWrite(a)).ok).toBe(false);
    await provisioner.drop(a.ref);
    guard.forget(a.ref);
    expect((await guard.checkWrite(a)).ok).toBe(true);
  });
});
