/**
 * What publishing asks of the project's database (docs/databases.md "Migrations"): the tables of
 * its `public` schema whose row-level security is off. A project without a database has none.
 * Throws DatabaseServerDown when the database's provider cannot be reached.
 */
export interface DatabaseSafety {
  tablesWithoutRls(projectId: string): Promise<readonly string[]>;
}
