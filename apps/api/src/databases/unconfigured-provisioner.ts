import { type DatabaseProvisioner, DatabaseServerDown, type SchemaMigrator } from '@kiln/domain';

/** The provisioner when createApp is given none: every call is a 503 (the API runs without project databases). */
export class UnconfiguredDatabaseProvisioner implements DatabaseProvisioner {
  readonly provider = 'local' as const;

  provision(): Promise<never> {
    return Promise.reject(new DatabaseServerDown('no database provider is configured'));
  }

  upgrade(): Promise<never> {
    return this.provision();
  }

  drop(): Promise<never> {
    return this.provision();
  }

  inspect(): Promise<never> {
    return this.provision();
  }

  sampleRows(): Promise<never> {
    return this.provision();
  }
}

/** The migrator when createApp is given none (e.g. Neon, for now): migrating is a 503. */
export class UnconfiguredSchemaMigrator implements SchemaMigrator {
  migrate(): Promise<never> {
    return Promise.reject(new DatabaseServerDown('migrations are not available for this database provider'));
  }

  applied(): Promise<never> {
    return this.migrate();
  }
}
