import { AlertTriangle, CircleX } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { cn } from '../../ui/cn';
import type { ConsoleVm } from './console.vm';

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Warnings and errors the preview logged (SPEC §5 rules applied by the view-model). */
export const ConsolePanel = observer(function ConsolePanel({ console: vm }: { console: ConsoleVm }) {
  if (vm.entries.length === 0) {
    return (
      <p className="flex h-full items-center justify-center px-4 text-center text-sm text-muted-foreground">
        No warnings or errors. What your app reports in its console shows up here.
      </p>
    );
  }
  return (
    <ol aria-label="Console messages" className="h-full overflow-auto font-mono text-xs">
      {vm.entries.map((entry, index) => {
        const Icon = entry.level === 'error' ? CircleX : AlertTriangle;
        return (
          <li
            key={`${entry.timestamp}-${index}`}
            className={cn(
              'flex gap-2 border-b border-border px-3 py-1.5',
              entry.level === 'error' ? 'bg-destructive-soft/60 text-destructive' : 'bg-warning-soft/60 text-warning',
            )}
          >
            <Icon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            <span className="sr-only">{entry.level === 'error' ? 'Error' : 'Warning'}:</span>
            <time dateTime={entry.timestamp} className="shrink-0 text-muted-foreground">
              {timeFormat.format(new Date(entry.timestamp))}
            </time>
            <span className="min-w-0 flex-1 break-words whitespace-pre-wrap text-foreground">{entry.text}</span>
          </li>
        );
      })}
    </ol>
  );
});
