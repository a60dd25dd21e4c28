import { hostname } from 'node:os';
import type { LoggerService } from '@nestjs/common';
import { type LogFormat, type LogRecord, prettyLogLine } from './log-format.js';

/** Where log lines go: process.stdout, or a test's collector. */
export interface LineSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** ANSI colours: on a terminal, unless NO_COLOR is set; FORCE_COLOR turns them on anywhere. */
export function wantsColour(sink: LineSink, env: NodeJS.ProcessEnv): boolean {
  if ((env['FORCE_COLOR'] ?? '') !== '' && env['FORCE_COLOR'] !== '0') return true;
  return sink.isTTY === true && (env['NO_COLOR'] ?? '') === '';
}

/**
 * pino's destination for LOG_FORMAT=pretty: each JSON line pino writes becomes prettyLogLine's
 * line (or nothing, for Nest's wiring chatter). A line that is not JSON passes through unchanged.
 */
export function prettyDestination(sink: LineSink, colour: boolean): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) {
        if (raw.trim() === '') continue;
        let record: LogRecord | null = null;
        try {
          record = JSON.parse(raw) as LogRecord;
        } catch {
          sink.write(`${raw}\n`);
          continue;
        }
        const line = prettyLogLine(record, { colour });
        if (line !== null) sink.write(`${line}\n`);
      }
    },
  };
}

const LEVEL_NUMBERS = { verbose: 10, debug: 20, log: 30, warn: 40, error: 50, fatal: 60 } as const;

/**
 * Nest's logger until the app's pino logger takes over (main.ts logs the sandbox isolation and
 * the embedded database before the app exists): the same records in the same format.
 */
export class StartupLogger implements LoggerService {
  private readonly out: { write(chunk: string): unknown };

  constructor(format: LogFormat, sink: LineSink = process.stdout, env: NodeJS.ProcessEnv = process.env) {
    this.out = format === 'pretty' ? prettyDestination(sink, wantsColour(sink, env)) : sink;
  }

  log(message: unknown, context?: string): void {
    this.write('log', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    this.write('error', message, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('verbose', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: keyof typeof LEVEL_NUMBERS, message: unknown, context: string | undefined): void {
    const msg = message instanceof Error ? message.message : message;
    const record = { level: LEVEL_NUMBERS[level], time: Date.now(), pid: process.pid, hostname: hostname(), ...(context ? { context } : {}), msg };
    this.out.write(`${JSON.stringify(record)}\n`);
  }
}
