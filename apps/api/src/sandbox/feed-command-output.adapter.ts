import { Inject, Injectable } from '@nestjs/common';
import type { CommandFeed, CommandResult } from '@kiln/domain';
import { SandboxFeed } from './sandbox-feed.js';

/** A named command's output and end, as `command-output` and `command-exit` events of the project's feed. */
@Injectable()
export class FeedCommandOutput implements CommandFeed {
  constructor(@Inject(SandboxFeed) private readonly feed: SandboxFeed) {}

  output(projectId: string, commandId: string, stream: 'stdout' | 'stderr', text: string): void {
    this.feed.publish(projectId, { event: 'command-output', data: { command_id: commandId, stream, text } });
  }

  exited(projectId: string, commandId: string, result: CommandResult): void {
    this.feed.publish(projectId, { event: 'command-exit', data: { command_id: commandId, exit_code: result.exitCode, timed_out: result.timedOut } });
  }
}
