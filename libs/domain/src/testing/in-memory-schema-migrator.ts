import { DatabaseServerDown } from '../databases/databases.errors.js';
import type { MigrationFile, MigrationOptions, MigrationOutcome, SchemaMigrator } from '../databases/schema-migrator.port.js';
import type { InMemoryDatabaseProvisioner } from './in-memory-databases.js';

/**
 * A SchemaMigrator over InMemoryDatabaseProvisioner: understands just `create table <name>` (RLS on,
 * as the event trigger makes it) and `alter table <name> disable row level security`; any other
 * statement starting with `fail` fails at its line. Records applied files with their text as the
 * checksum; one run is all or nothing, like the real one.
 */
export class InMemorySchemaMigrator implements SchemaMigrator {
  down = false;
  readonly runs: Array<{ ref: string; options: MigrationOptions }> = [];
  private readonly applied_ = new Map<string, Map<string, string>>();

  constructor(private readonly provisioner: InMemoryDatabaseProvisioner) {}

  async applied(ref: string): Promise<readonly string[]> {
    if (this.down) throw new DatabaseServerDown('in-memory migrator is down');
    return [...(this.applied_.get(ref)?.keys() ?? [])].sort();
  }

  async migrate(ref: string, files: readonly MigrationFile[], options: MigrationOptions): Promise<MigrationOutcome> {
    if (this.down) throw new DatabaseServerDown('in-memory migrator is down');
    this.runs.push({ ref, options });
    const record = this.applied_.get(ref) ?? new Map<string, string>();
    const changed = files.find((f) => record.has(f.name) && record.get(f.name) !== f.sql);
    if (changed) return { kind: 'changed', file: changed.name };
    const pending = files.filter((f) => !record.has(f.name));
    const effects: Array<() => void> = [];
    for (const file of pending) {
      const lines = file.sql.split('\n');
      for (const [index, line] of lines.entries()) {
        const create = /^\s*create table (\w+)/i.exec(line);
        const off = /^\s*alter table (\w+) disable row level security/i.exec(line);
        if (create) effects.push(() => this.provisioner.addTable(ref, create[1]!));
        else if (off) effects.push(() => this.provisioner.setRls(ref, off[1]!, false));
        else if (/^\s*fail/i.test(line)) return { kind: 'failed', file: file.name, line: index + 1, message: `syntax error at or near "fail"` };
      }
    }
    for (const effect of effects) effect();
    for (const file of pending) record.set(file.name, file.sql);
    this.applied_.set(ref, record);
    const present = new Set(files.map((f) => f.name));
    return { kind: 'applied', applied: pending.map((f) => f.name), kept: [...record.keys()].filter((n) => !present.has(n)).sort() };
  }
}
