/*
 * The builder's Database button and dialog (SPEC §7 "Database"). Accessible names the end-to-end
 * tests rely on: toolbar button "Database" (a dot when connected); dialog "Database"; button
 * "Connect a database" (while it runs: status "Creating your database"); status "Database
 * connected"; "Copy data URL", "Copy anon key"; progressbar "Database size"; list "Tables" whose
 * items are buttons named by the table (with "RLS on" / "RLS off"); table "Columns of <name>";
 * alert "Tables without row-level security"; "Disconnect", then the group "Disconnect the
 * database?" with "Cancel", "Keep the data", "Delete the data".
 */
import { Check, Copy, Database, ShieldAlert, ShieldCheck } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Dialog } from '../../ui/dialog';
import { Progress } from '../../ui/progress';
import { Spinner } from '../../ui/spinner';
import { Tooltip } from '../../ui/tooltip';
import { RLS_OFF_WARNING, type DatabaseVm, type TableRow } from './database.vm';

export const DatabaseButton = observer(function DatabaseButton({ vm }: { vm: DatabaseVm }) {
  const unsafe = vm.unsafeTables.length > 0;
  return (
    <Tooltip content={vm.connected ? (unsafe ? 'Database connected · a table has row-level security off' : 'Database connected') : 'Connect a database'}>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={vm.open}
        onClick={() => void vm.openDialog()}
        className={cn(
          'relative inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground outline-none',
          'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          vm.open && 'bg-accent text-foreground',
        )}
      >
        <Database className="size-4" aria-hidden />
        <span className="sr-only sm:not-sr-only">Database</span>
        {/* On the icon's corner, so the button is no wider than Theme's and the toolbar fits 375 px. */}
        {vm.connected && <span aria-hidden className={cn('absolute top-1 left-5 size-2 rounded-full ring-2 ring-background', unsafe ? 'bg-destructive' : 'bg-success')} />}
      </button>
    </Tooltip>
  );
});

export const DatabaseDialog = observer(function DatabaseDialog({ vm }: { vm: DatabaseVm }) {
  const store = vm.store;
  return (
    <Dialog
      open={vm.open}
      onClose={vm.closeDialog}
      title="Database"
      icon={<Database className="size-5" aria-hidden />}
      description="A PostgreSQL database of this project's own, reached from your app with supabase-js."
      className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto"
    >
      <div className="grid gap-5">
        {vm.checking && <Spinner label="Checking the database" />}
        {store.loadError !== null && (
          <Alert
            tone="destructive"
            title="The database could not be checked"
            action={
              <Button variant="outline" size="sm" onClick={() => void store.refresh()} loading={store.loading}>
                Try again
              </Button>
            }
          >
            {store.loadError}
          </Alert>
        )}
        {!vm.checking && !vm.connected && <ConnectPanel vm={vm} />}
        {vm.connected && <ConnectedPanel vm={vm} />}
        {vm.error !== null && (
          <Alert tone="destructive" title={vm.connected ? 'Not disconnected' : 'Not connected'}>
            {vm.error}
          </Alert>
        )}
      </div>
    </Dialog>
  );
});

const BENEFITS = [
  ['Data that survives', 'What people save is still there after a reload, on another device, tomorrow.'],
  ['Shared between your app’s users', 'Everyone using your app reads and writes the same data, and can sign in to their own.'],
  ['Safe by default', 'Every table gets row-level security: people only see and change the rows the rules allow them.'],
] as const;

const ConnectPanel = observer(function ConnectPanel({ vm }: { vm: DatabaseVm }) {
  const connecting = vm.phase === 'connecting';
  return (
    <section aria-label="Connect a database" className="grid gap-4">
      <ul className="grid gap-3 sm:grid-cols-3">
        {BENEFITS.map(([title, text]) => (
          <li key={title} className="grid content-start gap-1 rounded-xl border border-border p-4">
            <span className="flex items-center gap-2 text-sm font-medium">
              <Check className="size-4 text-success" aria-hidden /> {title}
            </span>
            <span className="text-sm text-muted-foreground">{text}</span>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="brand" onClick={() => void vm.connect()} loading={connecting}>
          {!connecting && <Database aria-hidden />}
          Connect a database
        </Button>
        {connecting && (
          <p role="status" aria-label="Creating your database" className="text-sm text-muted-foreground">
            Creating your database and turning on row-level security… this takes a few seconds.
          </p>
        )}
      </div>
    </section>
  );
});

const ConnectedPanel = observer(function ConnectedPanel({ vm }: { vm: DatabaseVm }) {
  const size = vm.size;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" aria-label="Database connected" className="flex items-center gap-2 text-sm font-medium">
          <span aria-hidden className="size-2 rounded-full bg-success" /> Database connected
        </p>
        {vm.store.loading && <Spinner className="size-4" label="Refreshing" />}
        {!vm.confirmingDisconnect && (
          <Button variant="outline" size="sm" className="ml-auto hover:text-destructive" onClick={vm.askDisconnect} disabled={vm.busy}>
            Disconnect
          </Button>
        )}
      </div>
      {vm.confirmingDisconnect && <DisconnectConfirm vm={vm} />}

      <section aria-label="Connection" className="grid gap-3 rounded-xl border border-border p-4">
        <CopyField label="Data URL" value={vm.dataUrl} onCopy={vm.copyDataUrl} copyLabel="Copy data URL" />
        <CopyField label="Anon key" value={vm.anonKey} onCopy={vm.copyAnonKey} copyLabel="Copy anon key" />
        <p className="text-xs text-muted-foreground">
          The anon key is public by design: it goes into your app’s code, where anyone can read it. Your rows are protected by row-level security, not by
          keeping this key secret.
        </p>
      </section>

      {size !== null && (
        <section aria-label="Size" className="grid gap-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-medium">Size</span>
            <span className={cn('tabular-nums', size.over ? 'text-destructive' : 'text-muted-foreground')}>{size.text}</span>
          </div>
          <Progress value={size.percent} label="Database size" tone={size.over ? 'destructive' : size.percent >= 80 ? 'warning' : 'default'} />
          {size.over && <p className="text-sm text-destructive">Over your plan’s quota: your app cannot save new data until you delete some or upgrade your plan.</p>}
        </section>
      )}

      {vm.unsafeTables.length > 0 && (
        <Alert tone="destructive" title="Tables without row-level security">
          <UnsafeTablesText tables={vm.unsafeTables} /> Ask the assistant to turn row-level security on with owner policies.
        </Alert>
      )}

      <TableBrowser vm={vm} />
    </>
  );
});

/** "Anyone with the app could read or change legacy and audit. Publishing is refused until…": shared with the Publish dialog. */
export function UnsafeTablesText({ tables }: { tables: readonly string[] }) {
  const names = tables.length === 1 ? 'this table' : 'these tables';
  return (
    <>
      Row-level security is off for{' '}
      {tables.map((name, index) => (
        <span key={name}>
          {index > 0 && ', '}
          <code className="font-mono text-foreground">{name}</code>
        </span>
      ))}
      . Anyone with the app could read or change {names}. Publishing is refused until it is on.
    </>
  );
}

function CopyField({ label, value, onCopy, copyLabel }: { label: string; value: string | null; onCopy: () => Promise<void>; copyLabel: string }) {
  return (
    <div className="grid gap-1.5">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-md bg-muted px-2 py-1.5 font-mono text-xs" title={value ?? undefined}>
          {value ?? '—'}
        </code>
        <Button variant="outline" size="sm" onClick={() => void onCopy()} disabled={value === null} aria-label={copyLabel}>
          <Copy aria-hidden /> <span className="max-sm:sr-only">Copy</span>
        </Button>
      </div>
    </div>
  );
}

const DisconnectConfirm = observer(function DisconnectConfirm({ vm }: { vm: DatabaseVm }) {
  const running = vm.phase === 'disconnecting';
  return (
    <div role="group" aria-label="Disconnect the database?" className="grid gap-3 rounded-xl border border-destructive/30 bg-destructive-soft p-4">
      <p className="text-sm font-semibold">Disconnect the database?</p>
      <ul className="grid gap-1.5 text-sm">
        <li>
          <span className="font-medium">Keep the data:</span> your app stops reaching the database, but every row stays. Connect again to get it back with
          the same address and keys.
        </li>
        <li>
          <span className="font-medium">Delete the data:</span> the database and every row in it are deleted for good. This cannot be undone.
        </li>
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={vm.cancelDisconnect} disabled={running}>
          Cancel
        </Button>
        <Button variant="outline" size="sm" onClick={() => void vm.disconnect(false)} disabled={running}>
          Keep the data
        </Button>
        <Button variant="destructive" size="sm" onClick={() => void vm.disconnect(true)} disabled={running}>
          Delete the data
        </Button>
      </div>
      {running && <Spinner className="size-4" label="Disconnecting" />}
    </div>
  );
});

const TableBrowser = observer(function TableBrowser({ vm }: { vm: DatabaseVm }) {
  const tables = vm.tables;
  const current = vm.currentTable;
  if (tables.length === 0) {
    return (
      <section aria-label="Tables" className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-foreground">
        No tables yet. Ask the assistant for a feature that keeps data (for example “save the todos in the database”) and it adds a migration.
      </section>
    );
  }
  return (
    <section aria-label="Table browser" className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
      <ul aria-label="Tables" className="grid content-start gap-1">
        {tables.map((table) => (
          <li key={table.name}>
            <button
              type="button"
              aria-pressed={table.name === current?.name}
              onClick={() => vm.selectTable(table.name)}
              className={cn(
                'grid w-full gap-1 rounded-lg border px-3 py-2 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring',
                table.name === current?.name ? 'border-brand/50 bg-accent' : 'border-border hover:bg-accent',
                !table.rlsEnabled && 'border-destructive/50',
              )}
            >
              <span className="flex min-w-0 items-center gap-2">
                <span className="truncate font-mono text-sm font-medium">{table.name}</span>
                <RlsBadge on={table.rlsEnabled} />
              </span>
              <span className="text-xs text-muted-foreground">{table.rows}</span>
              {!table.rlsEnabled && <span className="text-xs text-destructive">{RLS_OFF_WARNING}</span>}
            </button>
          </li>
        ))}
      </ul>
      {current !== null && <Columns table={current} />}
    </section>
  );
});

function RlsBadge({ on }: { on: boolean }) {
  return on ? (
    <Badge tone="success" className="ml-auto shrink-0" title="Row-level security is on: the rules decide who sees each row">
      <ShieldCheck aria-hidden /> RLS on
    </Badge>
  ) : (
    <Badge tone="destructive" className="ml-auto shrink-0" title={RLS_OFF_WARNING}>
      <ShieldAlert aria-hidden /> RLS off
    </Badge>
  );
}

function Columns({ table }: { table: TableRow }) {
  return (
    <div className="min-w-0 overflow-x-auto rounded-xl border border-border">
      <table aria-label={`Columns of ${table.name}`} className="w-full text-sm">
        <caption className="border-b border-border px-3 py-2 text-left text-xs font-medium text-muted-foreground">
          <span className="font-mono text-foreground">{table.name}</span> · {table.columns.length === 1 ? '1 column' : `${table.columns.length} columns`} ·{' '}
          {table.rows}
        </caption>
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th scope="col" className="px-3 py-2 font-medium">
              Column
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Empty allowed
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {table.columns.map((column) => (
            <tr key={column.name}>
              <td className="px-3 py-2 font-mono text-xs break-all">{column.name}</td>
              <td className="px-3 py-2 font-mono text-xs text-muted-foreground">{column.type}</td>
              <td className="px-3 py-2 text-xs text-muted-foreground">{column.nullable ? 'yes' : 'no'}</td>
            </tr>
          ))}
          {table.columns.length === 0 && (
            <tr>
              <td colSpan={3} className="px-3 py-2 text-xs text-muted-foreground">
                This table has no columns.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
