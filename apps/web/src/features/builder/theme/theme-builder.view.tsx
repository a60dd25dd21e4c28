/*
 * The theme builder dialog (SPEC §2). Accessible names the end-to-end tests rely on:
 * toolbar button "Theme"; dialog "Theme builder"; group "Presets" with one button per theme
 * (named by the theme, aria-pressed when selected, aria-current for the app's theme now — a
 * preset, or "Current theme" when none matches src/index.css); textbox "Describe a colour or mood" and button
 * "Generate"; groups "Light preview" / "Dark preview"; buttons "Apply theme" and "Close".
 */
import { CURRENT_THEME_NAME, fontNameFromUrl, type Theme } from '@kiln/domain';
import { Check, Palette, Sparkles } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import type { CSSProperties } from 'react';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { Dialog } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { Tooltip } from '../../../ui/tooltip';
import type { Swatch, ThemeBuilderVm } from './theme-builder.vm';

export const ThemeButton = observer(function ThemeButton({ vm }: { vm: ThemeBuilderVm }) {
  return (
    <Tooltip content="Colours, fonts and corners of your app">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={vm.open}
        onClick={vm.openDialog}
        className={cn(
          'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground outline-none',
          'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          vm.open && 'bg-accent text-foreground',
        )}
      >
        <Palette className="size-4" aria-hidden />
        <span className="sr-only sm:not-sr-only">Theme</span>
      </button>
    </Tooltip>
  );
});

export const ThemeBuilderDialog = observer(function ThemeBuilderDialog({ vm }: { vm: ThemeBuilderVm }) {
  const selected = vm.selected;
  return (
    <Dialog
      open={vm.open}
      onClose={vm.closeDialog}
      locked={vm.applying}
      title="Theme builder"
      icon={<Palette className="size-5" aria-hidden />}
      description="Pick a preset or describe a colour or mood. Applying it rewrites src/index.css and saves a version."
      className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto"
      footer={
        <Button variant="brand" loading={vm.applying} onClick={() => void vm.apply().catch(() => undefined)}>
          Apply theme
        </Button>
      }
    >
      <section className="grid gap-2">
        <h3 id="theme-presets" className="text-sm font-medium">
          Presets
        </h3>
        <div role="group" aria-labelledby="theme-presets" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {vm.themes.map((theme) => (
            <PresetButton key={theme.name} theme={theme} pressed={vm.isSelected(theme)} current={vm.isCurrent(theme)} onSelect={() => vm.select(theme)} />
          ))}
        </div>
      </section>

      <form
        className="grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          vm.generate();
        }}
      >
        <label htmlFor="theme-seed" className="text-sm font-medium">
          Describe a colour or mood
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id="theme-seed"
            value={vm.seed}
            onChange={(event) => vm.setSeed(event.target.value)}
            placeholder="calm ocean, bold purple, #e11d48…"
            autoComplete="off"
            className="sm:flex-1"
          />
          <Button type="submit" variant="outline" disabled={!vm.canGenerate}>
            <Sparkles aria-hidden />
            Generate
          </Button>
        </div>
      </form>

      <section className="grid gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <h3 className="text-sm font-medium">{selected.name}</h3>
          <p className="text-xs text-muted-foreground">
            {selected.fonts.length > 0 ? fontNameFromUrl(selected.fonts[0] ?? '') : 'System font'}
            {selected.radius === undefined ? '' : ` · radius ${selected.radius}`}
          </p>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <ModePreview label="Light preview" theme={selected} vars={selected.light} swatches={vm.lightSwatches} />
          <ModePreview label="Dark preview" theme={selected} vars={selected.dark} swatches={vm.darkSwatches} />
        </div>
      </section>
    </Dialog>
  );
});

function PresetButton({ theme, pressed, current, onSelect }: { theme: Theme; pressed: boolean; current: boolean; onSelect: () => void }) {
  const dots = [theme.light['primary'], theme.light['accent'], theme.dark['primary'], theme.dark['background']];
  return (
    <button
      type="button"
      aria-pressed={pressed}
      // The app's theme now; the visible word stays out of the button's name ("Ocean").
      aria-current={current ? 'true' : undefined}
      onClick={onSelect}
      className={cn(
        'relative flex min-h-11 items-center gap-2 rounded-lg border border-border bg-background px-3 py-2 text-left text-sm outline-none transition-colors',
        'hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
        pressed && 'border-foreground/40 bg-accent ring-1 ring-foreground/20',
      )}
    >
      <span aria-hidden className="flex shrink-0 -space-x-1.5">
        {dots.map((color, index) => (
          <span key={index} className="size-4 rounded-full border border-background shadow-sm" style={{ background: color }} />
        ))}
      </span>
      <span className="min-w-0 flex-1 truncate font-medium">{theme.name}</span>
      {current && theme.name !== CURRENT_THEME_NAME && (
        <span aria-hidden className="shrink-0 text-[10px] text-muted-foreground uppercase">
          Current
        </span>
      )}
      {pressed && <Check className="size-4 shrink-0" aria-hidden />}
    </button>
  );
}

/** A small app card drawn with the theme's own variables, and its swatches. */
function ModePreview({ label, theme, vars, swatches }: { label: string; theme: Theme; vars: Readonly<Record<string, string>>; swatches: readonly Swatch[] }) {
  const v = (name: string): string | undefined => vars[name];
  const radius = theme.radius ?? '0.625rem';
  const font = theme.fonts.length > 0 ? `'${fontNameFromUrl(theme.fonts[0] ?? '')}', ui-sans-serif, system-ui, sans-serif` : undefined;
  const surface: CSSProperties = { background: v('background'), color: v('foreground'), borderColor: v('border'), borderRadius: radius, fontFamily: font };
  return (
    <div role="group" aria-label={label} className="grid gap-3 border p-3" style={surface}>
      <div className="flex items-center justify-between text-xs font-medium" style={{ color: v('muted-foreground') }}>
        <span>{label.replace(' preview', '')}</span>
        <span aria-hidden className="flex gap-1">
          <span className="size-2 rounded-full" style={{ background: v('destructive') }} />
          <span className="size-2 rounded-full" style={{ background: v('primary') }} />
        </span>
      </div>
      <div className="grid gap-2 border p-3" style={{ background: v('card'), color: v('card-foreground'), borderColor: v('border'), borderRadius: radius }}>
        <p className="text-sm font-semibold">Welcome back</p>
        <p className="text-xs" style={{ color: v('muted-foreground') }}>
          Your projects, in your colours.
        </p>
        <div aria-hidden className="flex flex-wrap gap-2 pt-1">
          <span className="px-3 py-1 text-xs font-medium" style={{ background: v('primary'), color: v('primary-foreground'), borderRadius: radius }}>
            Primary
          </span>
          <span className="px-3 py-1 text-xs font-medium" style={{ background: v('secondary'), color: v('secondary-foreground'), borderRadius: radius }}>
            Secondary
          </span>
          <span className="border px-3 py-1 text-xs" style={{ borderColor: v('input'), color: v('muted-foreground'), borderRadius: radius }}>
            Input
          </span>
        </div>
      </div>
      <ul aria-label={`${label.replace(' preview', '')} colours`} className="grid grid-cols-4 gap-1.5">
        {swatches.map((swatch) => (
          <li key={swatch.name} className="grid gap-1" title={`--${swatch.name}: ${swatch.value}`}>
            <span className="h-6 border" style={{ background: swatch.value, borderColor: v('border'), borderRadius: `calc(${radius} - 4px)` }} />
            <span className="truncate text-[10px]" style={{ color: v('muted-foreground') }}>
              {swatch.name}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
