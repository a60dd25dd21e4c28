import { Monitor, Moon, Sun } from 'lucide-react';
import { autorun } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { buttonClasses } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Tooltip } from '../../ui/tooltip';
import { useVm } from '../../use-vm';
import { type ColorMode, ColorModeStore, type ResolvedColorMode } from './color-mode.store';

const LABELS: Record<ColorMode, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ColorMode, typeof Sun> = { system: Monitor, light: Sun, dark: Moon };

/** Paints <html> in the resolved mode (the `dark` class and color-scheme). Mount once per page. */
export function ColorModeSync() {
  const store = useVm(ColorModeStore);
  useEffect(
    () =>
      autorun(() => {
        const root = document.documentElement;
        root.classList.toggle('dark', store.resolved === 'dark');
        root.style.colorScheme = store.resolved;
      }),
    [store],
  );
  return null;
}

/** Forces a color mode while the calling page is mounted (SPEC §2: forceable per page). */
export function useForcedColorMode(mode: ResolvedColorMode): void {
  const store = useVm(ColorModeStore);
  useEffect(() => store.force(mode), [store, mode]);
}

/** An icon button cycling system → light → dark. */
export const ColorModeToggle = observer(function ColorModeToggle({ className }: { className?: string }) {
  const store = useVm(ColorModeStore);
  const Icon = ICONS[store.preference];
  const label = `Color mode: ${LABELS[store.preference]}. Switch to ${LABELS[store.nextPreference].toLowerCase()}`;
  return (
    <Tooltip content={`Theme: ${LABELS[store.preference]}`}>
      <button
        type="button"
        onClick={() => store.cycle()}
        aria-label={label}
        className={buttonClasses({ variant: 'ghost', size: 'icon-sm', className: cn('text-muted-foreground', className) })}
      >
        <Icon aria-hidden />
      </button>
    </Tooltip>
  );
});

/** The three modes side by side (settings, footers). */
export const ColorModePicker = observer(function ColorModePicker({ className }: { className?: string }) {
  const store = useVm(ColorModeStore);
  return (
    <div role="radiogroup" aria-label="Color mode" className={cn('inline-flex rounded-lg border border-border p-0.5', className)}>
      {(['system', 'light', 'dark'] as const).map((mode) => {
        const Icon = ICONS[mode];
        const checked = store.preference === mode;
        return (
          <button
            key={mode}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={LABELS[mode]}
            onClick={() => store.setPreference(mode)}
            className={cn(
              'inline-flex size-7 items-center justify-center rounded-md text-muted-foreground transition-colors hover:text-foreground',
              'focus-visible:outline-2 focus-visible:outline-ring',
              checked && 'bg-secondary text-foreground',
            )}
          >
            <Icon className="size-3.5" aria-hidden />
          </button>
        );
      })}
    </div>
  );
});
