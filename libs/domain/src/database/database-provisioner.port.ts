/** A database provisioned for a project ("connect database" in the builder). */
export interface ProvisionedDatabase {
  readonly id: string;
  readonly projectId: string;
  /** 'provisioning' until the provider reports it can take connections. */
  readonly status: 'provisioning' | 'ready';
}

export interface DatabaseCheck {
  /** The project has a database that is ready. */
  readonly connected: boolean;
  readonly database: ProvisionedDatabase | null;
}

/**
 * Creates and removes per-project databases (SPEC §7 Database). Connection secrets stay inside
 * the adapter, which hands them to the project's app; they never cross this port.
 */
export interface DatabaseProvisioner {
  /** Creates the project's database, or returns the existing one. */
  provision(projectId: string): Promise<ProvisionedDatabase>;
  check(projectId: string): Promise<DatabaseCheck>;
  /**
   * Forgets the database `id`. With deleteFromProvider it is also destroyed at the provider
   * (data lost); without, the provider keeps it.
   */
  remove(id: string, options: { readonly deleteFromProvider: boolean }): Promise<void>;
}
