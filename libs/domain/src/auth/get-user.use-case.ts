import { type Result, err, ok } from '../shared/result.js';
import { type AuthUserNotFound, authUserNotFound } from './auth.errors.js';
import { type AuthUser, isDeleted } from './auth-user.entity.js';
import type { AuthUserRepository } from './auth-user-repository.port.js';

/** GET /user: the account behind a verified access token. */
export class GetUser {
  constructor(private readonly users: AuthUserRepository) {}

  async execute(input: { readonly userId: string }): Promise<Result<AuthUser, AuthUserNotFound>> {
    const user = await this.users.findById(input.userId);
    return user && !isDeleted(user) ? ok(user) : err(authUserNotFound());
  }
}
