// The terminal: xterm.js, loaded lazily (its own chunk) by builder.view.tsx. All line editing
// and command running is TerminalVm's; this only connects xterm's input and output to it.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type ITheme } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import type { TerminalVm } from './terminal.vm';

const LIGHT: ITheme = {
  background: '#ffffff',
  foreground: '#27272a',
  cursor: '#27272a',
  selectionBackground: '#fcd9bd',
  green: '#15803d',
  red: '#dc2626',
  brightBlack: '#71717a',
};
const DARK: ITheme = {
  background: '#18181b',
  foreground: '#e4e4e7',
  cursor: '#e4e4e7',
  selectionBackground: '#7c2d12',
  green: '#4ade80',
  red: '#f87171',
  brightBlack: '#a1a1aa',
};

export default function TerminalPanel({ vm, dark }: { vm: TerminalVm; dark: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const terminal = useRef<Terminal | null>(null);

  useEffect(() => {
    const element = host.current;
    if (element === null) return;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, 'Liberation Mono', monospace",
      fontSize: 13,
      scrollback: 2000,
      theme: dark ? DARK : LIGHT,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    terminal.current = term;
    const fitIfShown = () => {
      if (element.clientWidth > 0 && element.clientHeight > 0) {
        try {
          fit.fit();
        } catch {
          // not laid out yet
        }
      }
    };
    fitIfShown();
    const observer = new ResizeObserver(fitIfShown);
    observer.observe(element);
    const detach = vm.attach((text) => term.write(text));
    const input = term.onData((data) => vm.input(data));
    return () => {
      input.dispose();
      detach();
      observer.disconnect();
      terminal.current = null;
      term.dispose();
    };
    // `dark` is read once here; the effect below follows it without rebuilding the terminal.
  }, [vm]);

  useEffect(() => {
    if (terminal.current !== null) terminal.current.options.theme = dark ? DARK : LIGHT;
  }, [dark]);

  return <div ref={host} role="group" aria-label="Terminal" className="size-full min-h-0 overflow-hidden bg-white px-2 pt-1.5 dark:bg-zinc-900" />;
}
