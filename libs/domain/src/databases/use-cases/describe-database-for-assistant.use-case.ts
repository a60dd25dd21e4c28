import type { AssistantDatabase } from '../../ai/ai-assistant.port.js';
import type { AssistantDatabaseSource } from '../../ai/context/assistant-database.port.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import { isSampleTableName, maskSampleRows, sampleLimit } from '../table-sample.js';

/** Most tables (and columns a table) told to the assistant: a schema, not a dump. */
export const ASSISTANT_SCHEMA_LIMITS = { tables: 50, columns: 60 } as const;

/**
 * What a turn tells the assistant of its project's database: connected (a ready record whose
 * database the provider still has) with the tables of `public` and their columns, or null. The
 * turn has already checked the project's owner; a provider that cannot be reached throws. It
 * also gives the assistant a way to read a few rows (readSample): capped, secrets masked.
 */
export class DescribeDatabaseForAssistant implements AssistantDatabaseSource {
  constructor(
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
  ) {}

  async forProject(projectId: string): Promise<AssistantDatabase | null> {
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return null;
    const inspection = await this.provisioner.inspect(database.ref);
    if (!inspection) return null;
    const ref = database.ref;
    return {
      connected: true,
      tables: inspection.tables.slice(0, ASSISTANT_SCHEMA_LIMITS.tables).map((t) => ({
        name: t.name,
        rlsEnabled: t.rlsEnabled,
        columns: t.columns.slice(0, ASSISTANT_SCHEMA_LIMITS.columns).map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
      })),
      readSample: async (table, limit) => {
        if (!isSampleTableName(table)) return null;
        const rows = await this.provisioner.sampleRows(ref, table, sampleLimit(limit));
        return rows === null ? null : maskSampleRows(rows.slice(0, sampleLimit(limit)));
      },
    };
  }
}
