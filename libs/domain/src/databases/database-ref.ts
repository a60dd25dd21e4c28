import type { RandomSource } from '../shared/random.port.js';

/** The ref names a project's database, its roles and its data origin (docs/databases.md "Conventions"). */
export const DATABASE_REF_LENGTH = 20;
const REF_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const REF = /^[a-z0-9]{20}$/;
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomString(random: RandomSource, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[random.nextInt(alphabet.length)];
  return out;
}

/** 20 characters of [a-z0-9] (≈103 bits): unguessable enough to be public, safe as an SQL identifier part. */
export function generateDatabaseRef(random: RandomSource): string {
  return randomString(random, REF_ALPHABET, DATABASE_REF_LENGTH);
}

/** Every SQL identifier built from a ref is checked with this first: nothing else reaches SQL text. */
export function isDatabaseRef(value: unknown): value is string {
  return typeof value === 'string' && REF.test(value);
}

/** A project's JWT secret: 48 characters of [A-Za-z0-9] (≈285 bits) for HS256. */
export function generateJwtSecret(random: RandomSource): string {
  return randomString(random, SECRET_ALPHABET, 48);
}

/** The names docs/databases.md fixes for a ref (throws on anything that is not a ref). */
export function databaseNames(ref: string): { database: string; authenticator: string; owner: string } {
  if (!isDatabaseRef(ref)) throw new Error('Not a database ref');
  return { database: `kiln_app_${ref}`, authenticator: `kiln_app_${ref}_authenticator`, owner: `kiln_app_${ref}_owner` };
}
