import type { CommandResult } from './sandbox-commands.port.js';

/**
 * Where a named command's output goes as it runs (the builder's terminal follows it on the
 * project's realtime feed), then how it ended. Never throws.
 */
export interface CommandFeed {
  output(projectId: string, commandId: string, stream: 'stdout' | 'stderr', text: string): void;
  exited(projectId: string, commandId: string, result: CommandResult): void;
}
