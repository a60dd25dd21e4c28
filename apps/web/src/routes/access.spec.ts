import { describe, expect, it } from '@jest/globals';
import type { SessionStatus, SessionUser } from '../app/ports';
import { type AccessInput, decideAccess, isPublicPath } from './access';

const ada: SessionUser = { id: 'u1', email: 'ada+kiln@example.com', isSignup: false, metadata: {} };
const newcomer: SessionUser = { ...ada, isSignup: true };

function at(path: string, status: SessionStatus, extra: Partial<AccessInput> = {}): AccessInput {
  return {
    path,
    search: '',
    hash: '',
    status,
    user: status === 'signed-in' ? ada : null,
    guard: null,
    signInInProgress: false,
    ...extra,
  };
}

describe('isPublicPath (SPEC §6)', () => {
  it.each([
    '/',
    '/legal/terms-of-service',
    '/legal/privacy-policy',
    '/legal/cookies-policy',
    '/legal/cancellation-refund-policy',
    '/get-started',
    '/pricing',
    '/verify',
    '/project-preview/my-app',
    '/contact-us',
    '/pitch-deck-gbm-jh-sss',
    // the screens that sign people in
    '/login',
    '/signup',
    '/reset-password',
    '/confirm',
    '/auth/callback',
  ])('%s is public', (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it.each(['/settings', '/thank-you', '/builder/p1', '/creation/p1', '/wizard/p1', '/profile-setup', '/beta', '/legalese', '/pricing-x'])(
    '%s needs sign-in',
    (path) => {
      expect(isPublicPath(path)).toBe(false);
    },
  );

  it('ignores a trailing slash', () => {
    expect(isPublicPath('/pricing/')).toBe(true);
    expect(isPublicPath('/settings/')).toBe(false);
  });
});

describe('decideAccess', () => {
  it('renders public paths for everyone, even while the session loads', () => {
    for (const status of ['loading', 'signed-out', 'signed-in'] as const) {
      expect(decideAccess(at('/', status))).toEqual({ kind: 'render' });
      expect(decideAccess(at('/legal/privacy-policy', status))).toEqual({ kind: 'render' });
      expect(decideAccess(at('/verify', status, { search: '?email=a%40b.co' }))).toEqual({ kind: 'render' });
    }
  });

  it('sends a visitor without a session to /get-started and remembers the full path', () => {
    expect(decideAccess(at('/builder/p1', 'signed-out', { search: '?tab=code', hash: '#x' }))).toEqual({
      kind: 'redirect',
      to: '/get-started',
      rememberReturnTo: '/builder/p1?tab=code#x',
    });
  });

  it('waits for the session before deciding on a non-public path', () => {
    expect(decideAccess(at('/settings', 'loading', { guard: 'auth' }))).toEqual({ kind: 'wait' });
    expect(decideAccess(at('/builder/p1', 'loading'))).toEqual({ kind: 'wait' });
  });

  it("renders /settings ('auth' guard) for a signed-in user", () => {
    expect(decideAccess(at('/settings', 'signed-in', { guard: 'auth', search: '?tab=referrals' }))).toEqual({ kind: 'render' });
    expect(decideAccess(at('/settings', 'signed-out', { guard: 'auth', search: '?tab=referrals' }))).toEqual({
      kind: 'redirect',
      to: '/get-started',
      rememberReturnTo: '/settings?tab=referrals',
    });
  });

  describe('/thank-you (checkout guard)', () => {
    it('renders for a signed-in user returning with session_id or success', () => {
      expect(decideAccess(at('/thank-you', 'signed-in', { guard: 'checkout', search: '?session_id=cs_1' }))).toEqual({ kind: 'render' });
      expect(decideAccess(at('/thank-you', 'signed-in', { guard: 'checkout', search: '?success=true' }))).toEqual({ kind: 'render' });
    });

    it('sends anyone without a checkout return to /pricing', () => {
      for (const status of ['loading', 'signed-out', 'signed-in'] as const) {
        expect(decideAccess(at('/thank-you', status, { guard: 'checkout', search: '?canceled=true' }))).toEqual({
          kind: 'redirect',
          to: '/pricing',
          rememberReturnTo: null,
        });
      }
    });

    it('asks a signed-out buyer to sign in first, then returns to the same URL', () => {
      expect(decideAccess(at('/thank-you', 'signed-out', { guard: 'checkout', search: '?session_id=cs_1' }))).toEqual({
        kind: 'redirect',
        to: '/get-started',
        rememberReturnTo: '/thank-you?session_id=cs_1',
      });
    });
  });

  describe('entry screens (SPEC §4 Entry)', () => {
    it('renders /get-started, /login and /signup for visitors without a session', () => {
      for (const path of ['/get-started', '/login', '/signup']) expect(decideAccess(at(path, 'signed-out'))).toEqual({ kind: 'render' });
    });

    it('sends a signed-in user home', () => {
      for (const path of ['/get-started', '/login', '/signup']) {
        expect(decideAccess(at(path, 'signed-in'))).toEqual({ kind: 'redirect', to: '/', rememberReturnTo: null });
      }
    });

    it('sends a signed-in user still marked is_signup to /verify with the email', () => {
      expect(decideAccess(at('/get-started', 'signed-in', { user: newcomer }))).toEqual({
        kind: 'redirect',
        to: '/verify?email=ada%2Bkiln%40example.com',
        rememberReturnTo: null,
      });
    });

    it('leaves /login alone while a sign-in is being finished there', () => {
      expect(decideAccess(at('/login', 'signed-in', { signInInProgress: true }))).toEqual({ kind: 'render' });
    });

    it('waits for the session so a signed-in user never sees the form flash', () => {
      expect(decideAccess(at('/get-started', 'loading'))).toEqual({ kind: 'wait' });
    });
  });

  it('lets /api/ paths through (SPEC §6)', () => {
    expect(decideAccess(at('/api/docs', 'signed-out'))).toEqual({ kind: 'render' });
  });
});

describe('decideAccess with a second factor owed (password accepted, authenticator code not yet)', () => {
  const owing = (path: string, extra: Partial<AccessInput> = {}) => decideAccess(at(path, 'second-factor', { user: ada, ...extra }));

  it('keeps /login open (it asks for the code) and sends the other entry screens there', () => {
    expect(owing('/login')).toEqual({ kind: 'render' });
    expect(owing('/get-started')).toEqual({ kind: 'redirect', to: '/login', rememberReturnTo: null });
    expect(owing('/signup')).toEqual({ kind: 'redirect', to: '/login', rememberReturnTo: null });
  });

  it('does not let the visitor into protected screens: /login asks for the code, then returns', () => {
    expect(owing('/settings', { guard: 'auth', search: '?tab=referrals' })).toEqual({ kind: 'redirect', to: '/login', rememberReturnTo: '/settings?tab=referrals' });
    expect(owing('/builder/p1')).toEqual({ kind: 'redirect', to: '/login', rememberReturnTo: '/builder/p1' });
  });

  it('leaves public pages public', () => {
    expect(owing('/pricing')).toEqual({ kind: 'render' });
    expect(owing('/legal/privacy-policy')).toEqual({ kind: 'render' });
  });
});
