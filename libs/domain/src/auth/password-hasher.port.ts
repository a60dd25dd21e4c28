/** Hashes passwords for storage (argon2id in production). Slow on purpose. */
export interface PasswordHasher {
  /** A self-describing hash (algorithm, parameters and salt included). */
  hash(password: string): Promise<string>;
  /** True when `password` matches `hash`; false for a mismatch or a hash it cannot read. */
  verify(hash: string, password: string): Promise<boolean>;
}
