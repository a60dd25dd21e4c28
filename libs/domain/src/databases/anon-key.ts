/** The anon key's claims (docs/databases.md "keys"): signed HS256 with the project's secret, no expiry. */
export function anonKeyClaims(ref: string): { readonly role: 'anon'; readonly ref: string; readonly iss: 'kiln' } {
  return { role: 'anon', ref, iss: 'kiln' };
}
