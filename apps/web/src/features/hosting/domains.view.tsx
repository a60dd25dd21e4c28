/*
 * The Publish dialog's Domains tab. Accessible names the end-to-end tests rely on: textbox
 * "Domain" and button "Add"; list "Domains" with one item per domain (its name, a status badge);
 * per domain a table "DNS records for <domain>" (columns Type, Name, Value; buttons "Copy name
 * of the <TYPE> record" / "Copy value of the <TYPE> record"), buttons "Verify <domain>" and
 * "Remove <domain>", then "Yes, remove".
 */
import { Copy, ExternalLink, Globe, ShieldCheck, Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, useId } from 'react';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import type { DomainRow, DomainsVm } from './domains.vm';

export const DomainsTab = observer(function DomainsTab({ vm, live }: { vm: DomainsVm; live: boolean }) {
  const inputId = useId();
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void vm.add();
  };
  return (
    <div className="grid gap-5">
      <form onSubmit={submit} className="grid gap-2" noValidate>
        <Label htmlFor={inputId}>Domain</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={inputId}
            value={vm.input}
            onChange={(event) => vm.setInput(event.target.value)}
            placeholder="www.example.com"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            inputMode="url"
            aria-invalid={vm.addError !== null || undefined}
            aria-describedby={vm.addError === null ? undefined : errorId}
            className="sm:flex-1"
          />
          <Button type="submit" variant="outline" loading={vm.adding}>
            Add
          </Button>
        </div>
        {vm.addError !== null ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {vm.addError}
          </p>
        ) : (
          <p className="text-xs text-muted-foreground">
            Use a domain you own. Kiln gives you two DNS records to create at your domain's provider, then checks them.
            {!live && ' The domain serves your app once the app is published.'}
          </p>
        )}
      </form>

      {vm.rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground">No custom domains yet.</p>
      ) : (
        <ul aria-label="Domains" className="grid gap-4">
          {vm.rows.map((row) => (
            <DomainItem key={row.domain} vm={vm} row={row} />
          ))}
        </ul>
      )}
    </div>
  );
});

const DomainItem = observer(function DomainItem({ vm, row }: { vm: DomainsVm; row: DomainRow }) {
  return (
    <li className="grid gap-3 rounded-xl border border-border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Globe className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="min-w-0 font-medium break-all">{row.domain}</span>
        <Badge tone={row.tone}>{row.statusLabel}</Badge>
        {row.url !== null && (
          <a href={row.url} target="_blank" rel="noopener noreferrer" className="ml-auto inline-flex items-center gap-1 text-sm text-brand hover:underline">
            <ExternalLink className="size-3.5" aria-hidden /> Open
          </a>
        )}
      </div>
      {row.failureReason !== null && <p className="text-sm text-destructive">{row.failureReason}</p>}

      {row.records.length > 0 && (
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">Create these records at your DNS provider:</p>
          {/* A table from 640 px; on phones each record stacks, its cells labelled. */}
          <div className="rounded-lg border border-border">
            <table className="w-full text-left text-sm max-sm:block">
              <caption className="sr-only">DNS records for {row.domain}</caption>
              <thead className="bg-muted/60 text-xs text-muted-foreground max-sm:hidden">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Type
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Value
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border max-sm:block">
                {row.records.map((record) => (
                  <tr key={`${record.type} ${record.name}`} className="max-sm:grid max-sm:gap-1.5 max-sm:p-3">
                    <td className="px-3 py-2 align-top font-mono text-xs font-semibold max-sm:p-0">{record.type}</td>
                    <td className="px-3 py-2 align-top max-sm:p-0">
                      <span className="text-xs text-muted-foreground sm:hidden">Name</span>
                      <CopyCell text={record.name} label={`Copy name of the ${record.type} record`} onCopy={() => void vm.copy(record.name, 'Name')} />
                    </td>
                    <td className="px-3 py-2 align-top max-sm:p-0">
                      <span className="text-xs text-muted-foreground sm:hidden">Value</span>
                      <CopyCell text={record.value} label={`Copy value of the ${record.type} record`} onCopy={() => void vm.copy(record.value, 'Value')} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}

      {row.message !== null && (
        <p role={row.message.tone === 'destructive' ? 'alert' : 'status'} className={row.message.tone === 'destructive' ? 'text-sm text-destructive' : 'text-sm text-success'}>
          {row.message.text}
        </p>
      )}

      {row.confirmingRemove ? (
        <div role="group" aria-label={`Remove ${row.domain}?`} className="flex flex-wrap items-center justify-end gap-2 rounded-lg bg-destructive-soft p-3">
          <p className="mr-auto text-sm">Remove {row.domain}? It stops serving your app.</p>
          <Button variant="ghost" size="sm" onClick={vm.cancelRemove} disabled={row.removing}>
            Cancel
          </Button>
          <Button variant="destructive" size="sm" onClick={() => void vm.confirmRemove()} loading={row.removing}>
            Yes, remove
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-2">
          {row.tone !== 'success' && (
            <Button variant="outline" size="sm" onClick={() => void vm.verify(row.domain)} loading={row.verifying} aria-label={`Verify ${row.domain}`}>
              {!row.verifying && <ShieldCheck aria-hidden />}
              Verify
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={() => vm.askRemove(row.domain)} aria-label={`Remove ${row.domain}`} className="hover:text-destructive">
            <Trash2 aria-hidden />
            Remove
          </Button>
        </div>
      )}
    </li>
  );
});

function CopyCell({ text, label, onCopy }: { text: string; label: string; onCopy: () => void }) {
  return (
    <div className="flex items-start gap-1.5">
      <code className="min-w-0 flex-1 font-mono text-xs break-all">{text}</code>
      <Button variant="ghost" size="icon-sm" onClick={onCopy} aria-label={label} title="Copy" className="-mt-1.5 size-7">
        <Copy className="size-3.5" />
      </Button>
    </div>
  );
}
