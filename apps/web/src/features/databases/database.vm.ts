import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Toasts, TYPES } from '../../app/ports';
import { type Clipboard, type Logger, UI_TYPES } from '../../app/ui-ports';
import type { DatabaseColumnDto, DatabasesApi } from '../../api/databases.api';
import { formatBytes, safeHttpUrl } from '../hosting/site-display';
import { ProjectDatabaseStore, databaseErrorText } from './project-database.store';

/** idle: nothing under way. connecting: POST provision runs. disconnecting: DELETE runs (keep or delete). */
export type DatabasePhase = 'idle' | 'connecting' | 'disconnecting';

export interface TableRow {
  readonly name: string;
  readonly rlsEnabled: boolean;
  /** 'about 120 rows' (PostgreSQL's estimate). */
  readonly rows: string;
  readonly columns: readonly DatabaseColumnDto[];
}

export interface SizeUse {
  /** '1.2 MB of 100 MB'. */
  readonly text: string;
  /** 0–100, for the bar. */
  readonly percent: number;
  readonly over: boolean;
}

export const RLS_OFF_WARNING = 'Anyone with the app could read or change this table.';

/** 'about 1,234 rows': an estimate, never claimed exact. */
export function rowsText(estimate: number): string {
  if (!Number.isFinite(estimate) || estimate <= 0) return 'no rows yet';
  const rounded = Math.round(estimate);
  return rounded === 1 ? 'about 1 row' : `about ${rounded.toLocaleString('en-US')} rows`;
}

/** The size against the plan's quota; null when the quota is not known. */
export function sizeUse(sizeBytes: number, quotaBytes: number | undefined, over: boolean | undefined): SizeUse | null {
  if (quotaBytes === undefined || !Number.isFinite(quotaBytes) || quotaBytes <= 0) return null;
  const percent = Math.min(100, Math.max(0, Math.round((sizeBytes / quotaBytes) * 100)));
  return { text: `${formatBytes(sizeBytes)} of ${formatBytes(quotaBytes)}`, percent, over: over === true || sizeBytes > quotaBytes };
}

/**
 * The builder's Database button and dialog (SPEC §7 "Database"): connect a database, then
 * "Database connected" with the data URL and anon key (Copy), the size against the plan's
 * quota and a table browser (columns, row-level security, row estimates); Disconnect keeps
 * or deletes the data, as chosen. The project's state lives in ProjectDatabaseStore.
 */
@injectable()
export class DatabaseVm {
  open = false;
  phase: DatabasePhase = 'idle';
  /** The words of a failed connect or disconnect. */
  error: string | null = null;
  confirmingDisconnect = false;
  /** The table whose columns are shown (the browser's selection); null: the first. */
  selectedTable: string | null = null;

  constructor(
    @inject(ProjectDatabaseStore) readonly store: ProjectDatabaseStore,
    @inject(TYPES.DatabasesApi) private readonly api: DatabasesApi,
    @inject(UI_TYPES.Clipboard) private readonly clipboard: Clipboard,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<DatabaseVm, 'api' | 'clipboard' | 'toasts' | 'logger'>(
      this,
      { store: false, api: false, clipboard: false, toasts: false, logger: false },
      { autoBind: true },
    );
  }

  /** The builder opened a project. */
  setProject(projectId: string): void {
    if (projectId === this.store.projectId) return;
    this.open = false;
    this.phase = 'idle';
    this.error = null;
    this.confirmingDisconnect = false;
    this.selectedTable = null;
    this.store.setProject(projectId);
  }

  /** The toolbar's Database: the dialog opens on fresh facts (the assistant may have added tables). */
  async openDialog(): Promise<void> {
    this.open = true;
    this.confirmingDisconnect = false;
    if (this.phase === 'idle') this.error = null;
    await this.store.refresh();
  }

  closeDialog(): void {
    this.open = false;
    this.confirmingDisconnect = false;
  }

  get connected(): boolean {
    return this.store.databaseConnected;
  }

  /** Nothing known yet: the first check has not answered. */
  get checking(): boolean {
    return this.store.check === null && this.store.loadError === null;
  }

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  // ── Connecting ───────────────────────────────────────────────────────────────────────────

  async connect(): Promise<void> {
    const projectId = this.store.projectId;
    if (this.busy || projectId === '' || this.connected) return;
    this.phase = 'connecting';
    this.error = null;
    try {
      const database = await this.api.provision(projectId);
      if (projectId !== this.store.projectId) return; // the builder moved to another project
      this.store.setConnected(projectId, database);
      this.toasts.show({ title: 'Database connected', description: 'Your app can now keep data that survives and is shared.', variant: 'success' });
      await this.store.refresh();
    } catch (error) {
      this.logger.warn('Database provision failed', error);
      runInAction(() => {
        if (projectId === this.store.projectId) this.error = databaseErrorText(error, 'The database could not be connected. Please try again.');
      });
    } finally {
      runInAction(() => (this.phase = 'idle'));
    }
  }

  // ── The connection ───────────────────────────────────────────────────────────────────────

  get dataUrl(): string | null {
    const check = this.store.check;
    return check?.connected === true ? safeHttpUrl(check.url)?.replace(/\/$/, '') ?? null : null;
  }

  get anonKey(): string | null {
    const check = this.store.check;
    return check?.connected === true && typeof check.anon_key === 'string' && check.anon_key !== '' ? check.anon_key : null;
  }

  async copyDataUrl(): Promise<void> {
    if (this.dataUrl !== null) await this.copy(this.dataUrl, 'Data URL');
  }

  async copyAnonKey(): Promise<void> {
    if (this.anonKey !== null) await this.copy(this.anonKey, 'Anon key');
  }

  get size(): SizeUse | null {
    const check = this.store.check;
    if (check?.connected !== true) return null;
    return sizeUse(check.size_bytes, check.quota_bytes, check.over_quota);
  }

  // ── The table browser ────────────────────────────────────────────────────────────────────

  get tables(): TableRow[] {
    const check = this.store.check;
    if (check?.connected !== true) return [];
    return check.tables.map((table) => ({ name: table.name, rlsEnabled: table.rls_enabled, rows: rowsText(table.row_estimate), columns: table.columns }));
  }

  get unsafeTables(): string[] {
    return this.store.unsafeTables;
  }

  /** The table whose schema shows: the chosen one while it exists, else the first. */
  get currentTable(): TableRow | null {
    const tables = this.tables;
    return tables.find((table) => table.name === this.selectedTable) ?? tables[0] ?? null;
  }

  selectTable(name: string): void {
    this.selectedTable = name;
  }

  // ── Disconnecting ────────────────────────────────────────────────────────────────────────

  askDisconnect(): void {
    if (!this.busy) this.confirmingDisconnect = true;
  }

  cancelDisconnect(): void {
    if (this.phase !== 'disconnecting') this.confirmingDisconnect = false;
  }

  /** deleteFromProvider false: "Keep the data" (reconnecting brings it back); true: "Delete the data" (gone for good). */
  async disconnect(deleteFromProvider: boolean): Promise<void> {
    const projectId = this.store.projectId;
    if (this.busy || projectId === '' || !this.connected) return;
    this.phase = 'disconnecting';
    this.error = null;
    try {
      await this.api.disconnect(projectId, deleteFromProvider);
      runInAction(() => {
        this.store.setDisconnected(projectId);
        this.confirmingDisconnect = false;
        this.selectedTable = null;
      });
      this.toasts.show(
        deleteFromProvider
          ? { title: 'Database deleted', description: 'Its data is gone. Connecting again makes a new, empty database.', variant: 'success' }
          : { title: 'Database disconnected', description: 'Its data is kept: connect again to get it back.', variant: 'success' },
      );
    } catch (error) {
      this.logger.warn('Database disconnect failed', error);
      runInAction(() => {
        if (projectId === this.store.projectId) this.error = databaseErrorText(error, 'The database could not be disconnected. Please try again.');
      });
    } finally {
      runInAction(() => (this.phase = 'idle'));
    }
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────

  private async copy(text: string, what: string): Promise<void> {
    try {
      await this.clipboard.writeText(text);
      this.toasts.show({ title: `${what} copied`, variant: 'success' });
    } catch {
      this.toasts.show({ title: 'Could not copy', description: 'The browser did not allow it. Select the text and copy it yourself.', variant: 'error' });
    }
  }
}
