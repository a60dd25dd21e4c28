import type { AuthUserRepository } from '../../auth/auth-user-repository.port.js';
import type { OneTimeCodeStore } from '../../auth/one-time-code-store.port.js';
import type { SessionStore } from '../../auth/session-store.port.js';
import { InMemoryAuthUserRepository } from './in-memory-auth-user-repository.js';
import { InMemoryOneTimeCodeStore } from './in-memory-one-time-code-store.js';
import { InMemorySessionStore } from './in-memory-session-store.js';

/** App users' stores per project ref, in memory: one separate set of stores per ref (PgAppAuthStores' twin). */
export class InMemoryAppAuthStores {
  private readonly byRef = new Map<string, { users: AuthUserRepository; codes: OneTimeCodeStore; sessions: SessionStore }>();

  forRef(ref: string): Promise<{ users: AuthUserRepository; codes: OneTimeCodeStore; sessions: SessionStore }> {
    let stores = this.byRef.get(ref);
    if (!stores) {
      stores = { users: new InMemoryAuthUserRepository(), codes: new InMemoryOneTimeCodeStore(), sessions: new InMemorySessionStore() };
      this.byRef.set(ref, stores);
    }
    return Promise.resolve(stores);
  }

  release(ref: string): Promise<void> {
    this.byRef.delete(ref);
    return Promise.resolve();
  }
}
