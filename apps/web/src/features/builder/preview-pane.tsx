import { AlertCircle, ExternalLink, Laptop, Maximize2, Minimize2, Monitor, MousePointerClick, RotateCw, Smartphone, Tablet } from 'lucide-react';
import { useCallback, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import { Tooltip } from '../../ui/tooltip';
import type { BuilderVm } from './builder.vm';
import { useElementSize } from '../../ui/use-element-size';
import { DEVICES, DEVICE_FRAMES, type Device, deviceFrameHint, fitPreviewFrame } from './preview';

const DEVICE_ICONS: Record<Device, typeof Smartphone> = { mobile: Smartphone, tablet: Tablet, laptop: Laptop, desktop: Monitor };

const iconButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground transition-colors outline-none ' +
  'hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40';

/** Device sizes (a segmented group of toggle buttons), reload, open in a new tab, full screen. */
export const PreviewActions = observer(function PreviewActions({ vm }: { vm: BuilderVm }) {
  const ready = vm.previewUrl !== null;
  return (
    <div className="flex items-center gap-1">
      <div role="group" aria-label="Device size" className="hidden items-center gap-0.5 rounded-lg border border-border bg-muted p-0.5 sm:flex">
        {DEVICES.map((device) => {
          const Icon = DEVICE_ICONS[device];
          const frame = DEVICE_FRAMES[device];
          const pressed = vm.device === device;
          return (
            <Tooltip key={device} content={deviceFrameHint(frame)}>
              <button
                type="button"
                aria-label={frame.label}
                aria-pressed={pressed}
                onClick={() => vm.setDevice(device)}
                className={cn(
                  'inline-flex h-7 w-8 items-center justify-center rounded-md text-muted-foreground outline-none transition-colors',
                  'hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
                  pressed && 'bg-background text-foreground shadow-sm dark:bg-input/40',
                )}
              >
                <Icon className="size-4" aria-hidden />
              </button>
            </Tooltip>
          );
        })}
      </div>
      <Tooltip content={vm.picker.picking ? 'Click an element in the preview (Esc to cancel)' : 'Select an element to change'}>
        <button
          type="button"
          aria-label="Select an element"
          aria-pressed={vm.picker.picking}
          disabled={!vm.picker.available}
          onClick={vm.picker.togglePicking}
          className={cn(iconButton, vm.picker.picking && 'bg-brand-soft text-foreground')}
        >
          <MousePointerClick className="size-4" aria-hidden />
        </button>
      </Tooltip>
      <Tooltip content="Reload preview">
        <button type="button" aria-label="Reload preview" disabled={!ready} onClick={() => void vm.reloadPreview()} className={iconButton}>
          <RotateCw className="size-4" aria-hidden />
        </button>
      </Tooltip>
      <Tooltip content="Open in a new tab">
        <button type="button" aria-label="Open preview in a new tab" disabled={!ready} onClick={() => void vm.openPreviewInNewTab()} className={iconButton}>
          <ExternalLink className="size-4" aria-hidden />
        </button>
      </Tooltip>
      <Tooltip content="Full screen">
        <button type="button" aria-label="Full screen" aria-pressed={vm.fullscreen} disabled={!ready} onClick={vm.toggleFullscreen} className={iconButton}>
          <Maximize2 className="size-4" aria-hidden />
        </button>
      </Tooltip>
    </div>
  );
});

/**
 * The live preview: the sandbox's app in a frame of the chosen device's width, scaled down to fit
 * the pane (never cropped); the frame's border is outside the scaled viewport.
 */
export const PreviewPane = observer(function PreviewPane({ vm }: { vm: BuilderVm }) {
  if (vm.phase === 'failed') {
    return (
      <div className="flex h-full items-center justify-center p-6">
        <div className="max-w-sm text-center">
          <AlertCircle className="mx-auto size-8 text-destructive" aria-hidden />
          <h2 className="mt-4 text-lg font-semibold tracking-tight">The preview could not start</h2>
          <p role="alert" className="mt-1 text-sm text-muted-foreground">
            {vm.failure}
          </p>
          <Button className="mt-6" variant="outline" onClick={() => void vm.retry()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  if (vm.previewUrl === null) {
    return (
      <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-sm text-muted-foreground">
        <Spinner className="size-6 text-brand" />
        <p>Starting your app…</p>
      </div>
    );
  }
  return <PreviewFrame vm={vm} url={vm.previewUrl} />;
});

/** The frame's border, outside the app's viewport (1 px each side). */
const FRAME_BORDER = 2;

const PreviewFrame = observer(function PreviewFrame({ vm, url }: { vm: BuilderVm; url: string }) {
  const [paneRef, pane] = useElementSize<HTMLDivElement>();
  const border = vm.fullscreen ? 0 : FRAME_BORDER;
  const fitted = fitPreviewFrame({ width: pane.width - border, height: pane.height - border }, DEVICE_FRAMES[vm.device]);
  const measured = pane.width > 0;
  // The element picker talks to the app in this frame (and only to its origin); a reloaded app
  // is told again whether a pick is under way.
  const attach = vm.picker.attachFrame;
  const frame = useRef<HTMLIFrameElement | null>(null);
  const post = useCallback((message: unknown, origin: string) => frame.current?.contentWindow?.postMessage(message, origin), []);
  const frameRef = useCallback(
    (element: HTMLIFrameElement | null) => {
      frame.current = element;
      attach(element === null ? null : post);
    },
    [attach, post],
  );
  return (
    <div
      className={cn(
        'flex h-full min-h-0 flex-col',
        vm.fullscreen ? 'fixed inset-0 z-50 bg-background' : 'bg-[radial-gradient(var(--color-border)_1px,transparent_1px)] [background-size:16px_16px]',
      )}
    >
      {vm.fullscreen && (
        <div className="flex h-11 shrink-0 items-center justify-between gap-2 border-b border-border px-3">
          <p className="truncate text-sm font-medium">{vm.projectName || 'Preview'}</p>
          <div className="flex items-center gap-1">
            <PreviewDeviceHint device={vm.device} />
            <Button variant="outline" size="sm" onClick={vm.exitFullscreen}>
              <Minimize2 aria-hidden />
              Exit full screen
            </Button>
          </div>
        </div>
      )}
      <div ref={paneRef} className={cn('flex min-h-0 flex-1 justify-center overflow-hidden', !vm.fullscreen && 'p-3 sm:p-4')}>
        <div
          data-testid="preview-frame"
          data-scale={fitted.scale}
          // The scaled viewport's box: the device width times the scale, the pane's height.
          style={measured ? { width: fitted.width * fitted.scale, height: fitted.height * fitted.scale } : { width: '100%' }}
          className={cn(
            'box-content h-full shrink-0 overflow-hidden bg-white',
            !vm.fullscreen && 'rounded-lg border border-border shadow-sm',
            // Phones have no device buttons: the app fills the screen.
            'max-sm:w-full! max-sm:h-full!',
          )}
        >
          <iframe
            key={vm.previewKey}
            ref={frameRef}
            onLoad={() => attach(post)}
            title="App preview"
            src={url}
            style={measured ? { width: fitted.width, height: fitted.height, transform: `scale(${fitted.scale})` } : undefined}
            className="size-full origin-top-left border-0 bg-white max-sm:size-full! max-sm:transform-none!"
            // The app runs on its own origin; it may not navigate or take over the builder.
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads"
            allow="clipboard-read; clipboard-write"
          />
        </div>
      </div>
    </div>
  );
});

function PreviewDeviceHint({ device }: { device: Device }) {
  return <span className="hidden text-xs text-muted-foreground sm:inline">{DEVICE_FRAMES[device].label}</span>;
}
