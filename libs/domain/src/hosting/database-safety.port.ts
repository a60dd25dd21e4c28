/** What a database safety check found: the tables with row-level security off, or that it could not look. */
export type DatabaseSafetyCheck = { readonly kind: 'checked'; readonly tablesWithoutRls: readonly string[] } | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * What publishing asks of the project's database (docs/databases.md "Migrations"): the tables of
 * its `public` schema whose row-level security is off. A project without a database has none.
 * The databases context implements it (DatabaseRlsSafety); hosting knows nothing else of it.
 */
export interface DatabaseSafety {
  check(projectId: string): Promise<DatabaseSafetyCheck>;
}
