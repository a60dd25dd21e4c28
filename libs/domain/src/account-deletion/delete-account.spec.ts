import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { DeleteProject } from '../projects/delete-project.use-case.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { err, ok } from '../shared/result.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { snapshot, subscriptionEvent } from '../testing/payment-event-builders.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { DeliverMarketingOutbox } from '../marketing/deliver-marketing-outbox.use-case.js';
import { FailedContactCache } from '../marketing/failed-contact-cache.js';
import { RemoveMarketingContact } from '../marketing/remove-marketing-contact.use-case.js';
import { InMemoryMarketingAudience, InMemoryMarketingOutbox } from '../testing/in-memory-marketing.js';
import { DeleteAccount } from './delete-account.use-case.js';

const T0 = new Date('2026-03-01T10:00:00Z');

/** The auth kit and the profiles/billing/projects kit on one clock; site takedowns and database drops recorded. */
async function world() {
  const kit = createTestKit();
  kit.clock.set(T0);
  const authKit = createAuthTestKit({ clock: kit.clock });
  const sandboxes = new InMemorySandboxHost(kit.clock);
  const takenDown: string[] = [];
  const dropped: string[] = [];
  const databases = { down: false };
  const takedown = { takeDown: async (id: string) => void takenDown.push(id) };
  const removal = {
    dropFor: async (id: string) => {
      if (databases.down) return err({ code: 'DATABASES.SERVER_UNAVAILABLE', message: 'down' });
      dropped.push(id);
      return ok(undefined);
    },
  };
  const deleteProject = new DeleteProject(new OwnedProjects(kit.projects, kit.clock), kit.projects, kit.clock, takedown, removal);
  const outbox = new InMemoryMarketingOutbox();
  const audience = new InMemoryMarketingAudience();
  const deliverMarketing = new DeliverMarketingOutbox(outbox, audience, kit.clock, new FailedContactCache(kit.clock), { warn: () => undefined });
  const deleteAccount = new DeleteAccount(authKit.auth, kit.profiles, kit.cancelSubscription, kit.projects, deleteProject, sandboxes, new RemoveMarketingContact(outbox, kit.clock), kit.clock);
  const session = await signUpConfirmed(authKit, 'ana@example.com');
  const userId = session.user.id;
  await signUp(kit, userId);
  return { kit, authKit, sandboxes, takenDown, dropped, databases, deleteAccount, session, userId, outbox, audience, deliverMarketing };
}

async function project(w: Awaited<ReturnType<typeof world>>, name: string) {
  const created = await w.kit.createProject.execute({ creatorId: w.userId, name });
  if (!created.ok) throw new Error(created.error.message);
  await w.sandboxes.ensure(created.value.id);
  return created.value;
}

describe('DeleteAccount', () => {
  it('removes the marketing contact, after its earlier updates, even when the audience is down at the time', async () => {
    const w = await world();
    const email = `${w.userId}@example.com`;
    await w.outbox.enqueue({ kind: 'contact', email, attributes: { PLAN: 'free' } }, w.kit.clock.now());
    w.audience.down = true;

    expect((await w.deleteAccount.execute({ userId: w.userId })).ok).toBe(true);
    expect((await w.outbox.pending(email)).map((p) => p.delivery.kind)).toEqual(['contact', 'remove']);

    w.audience.down = false;
    expect(await w.deliverMarketing.execute()).toEqual({ delivered: 2, failed: 0, deferred: 0 });
    expect(w.audience.contact(email)).toBeNull();
    expect(await w.outbox.pending(email)).toEqual([]);
  });

  it('queues no marketing removal when a step before it fails (the person stays, and so does the contact)', async () => {
    const w = await world();
    await project(w, 'One');
    w.databases.down = true;
    expect((await w.deleteAccount.execute({ userId: w.userId })).ok).toBe(false);
    expect(await w.outbox.pending(`${w.userId}@example.com`)).toEqual([]);
  });

  it('deletes every project (site down, sandbox removed, database dropped), then ends every session', async () => {
    const w = await world();
    const other = await signIn(w.authKit, 'ana@example.com');
    const a = await project(w, 'One');
    const b = await project(w, 'Two');

    const result = await w.deleteAccount.execute({ userId: w.userId });

    expect(result).toEqual({ ok: true, value: { deletedAt: T0, subscriptionCancelled: false, projectsHidden: 2 } });
    expect(w.takenDown.sort()).toEqual([a.id, b.id].sort());
    expect(w.dropped.sort()).toEqual([a.id, b.id].sort());
    for (const p of [a, b]) expect((await w.kit.projects.findById(p.id))?.status).toBe('deleted');
    expect(await w.kit.projects.listByCreator(w.userId)).toEqual([]);
    expect(await w.kit.projects.countActiveByCreator(w.userId)).toBe(0);
    // the sandbox is gone: asking for it again creates a new, empty one
    expect((await w.sandboxes.ensure(a.id)).machineCreated).toBe(true);
    for (const s of [w.session, other]) expect((await w.authKit.auth.verifier.verify(s.accessToken)).ok).toBe(false);
    expect((await w.authKit.auth.refreshSession.execute({ refreshToken: w.session.refreshToken })).ok).toBe(false);
    expect((await w.authKit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'correct horse battery' })).ok).toBe(false);
  });

  it('cancels a paid subscription at its period end first: the plan runs to the end, nothing renews', async () => {
    const w = await world();
    const sub = snapshot({ currentPeriodStart: T0 });
    w.kit.payments.subscriptions.set(sub.id, sub);
    expect((await w.kit.handlePaymentEvent.execute(subscriptionEvent('evt_1', 'subscription.created', w.userId, T0, sub))).ok).toBe(true);

    const result = await w.deleteAccount.execute({ userId: w.userId });

    expect(result).toMatchObject({ ok: true, value: { subscriptionCancelled: true } });
    expect(w.kit.payments.calls.filter((c) => c.method === 'cancelSubscription')).toHaveLength(1);
    expect(w.kit.payments.subscriptions.get(sub.id)?.cancelAtPeriodEnd).toBe(true);
    // The row is kept (hidden from lookups) with the end of the paid period.
    expect(w.kit.profiles.all().find((p) => p.id === w.userId)).toMatchObject({ subscriptionEndDate: sub.currentPeriodEnd });
  });

  it('when the payment provider is down, nothing else happens and the person stays signed in to retry', async () => {
    const w = await world();
    const sub = snapshot({ currentPeriodStart: T0 });
    w.kit.payments.subscriptions.set(sub.id, sub);
    await w.kit.handlePaymentEvent.execute(subscriptionEvent('evt_1', 'subscription.created', w.userId, T0, sub));
    const a = await project(w, 'One');
    w.kit.payments.subscriptions.delete(sub.id); // the in-memory provider now rejects the cancel

    await expect(w.deleteAccount.execute({ userId: w.userId })).rejects.toThrow('No such subscription');

    expect((await w.kit.projects.findById(a.id))?.status).toBe('active');
    expect(w.takenDown).toEqual([]);
    expect((await w.authKit.auth.verifier.verify(w.session.accessToken)).ok).toBe(true);
  });

  it('a project database that cannot be dropped fails the deletion before the sign-in ends; a retry finishes', async () => {
    const w = await world();
    const a = await project(w, 'One');
    w.databases.down = true;
    expect(await w.deleteAccount.execute({ userId: w.userId })).toMatchObject({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE' } });
    expect((await w.kit.projects.findById(a.id))?.status).toBe('active');
    expect((await w.authKit.auth.verifier.verify(w.session.accessToken)).ok).toBe(true);
    w.databases.down = false;
    expect(await w.deleteAccount.execute({ userId: w.userId })).toMatchObject({ ok: true, value: { projectsHidden: 1 } });
    expect(w.dropped).toEqual([a.id]);
  });

  it('the same address signs up again as a new account, with none of the old projects', async () => {
    const w = await world();
    await project(w, 'One');
    await w.deleteAccount.execute({ userId: w.userId });
    w.kit.clock.advance(60_000);

    const again = await signUpConfirmed(w.authKit, 'ana@example.com');

    expect(again.user.id).not.toBe(w.userId);
    expect(await w.kit.projects.listByCreator(again.user.id)).toEqual([]);
  });

  it('hides the profile: not found by id, and its referral code no longer resolves for a new sign-up', async () => {
    const w = await world();
    const code = (await w.kit.profiles.findById(w.userId))?.referralCode ?? '';
    expect(code).not.toBe('');

    await w.deleteAccount.execute({ userId: w.userId });

    expect(await w.kit.profiles.findById(w.userId)).toBeNull();
    expect(await w.kit.profiles.findByReferralCode(code)).toBeNull();
    const friend = await w.kit.applyReferral.execute({ refereeId: (await signUp(w.kit, 'friend')).profile.id, code });
    expect(friend).toMatchObject({ ok: false, error: { code: 'REFERRALS.UNKNOWN_CODE' } });
  });

  it('answers user_not_found for an account already deleted (or unknown), touching nothing', async () => {
    const w = await world();
    await w.deleteAccount.execute({ userId: w.userId });
    const a = await w.deleteAccount.execute({ userId: w.userId });
    const b = await w.deleteAccount.execute({ userId: 'nobody' });
    expect(a).toMatchObject({ ok: false, error: { code: 'AUTH.USER_NOT_FOUND' } });
    expect(b).toEqual(a);
  });
});
