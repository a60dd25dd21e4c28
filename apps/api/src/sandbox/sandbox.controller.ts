import { Body, Controller, Delete, Get, HttpCode, Inject, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  type CommandResult,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  type DevServerState,
  EMPTY_ERROR_SCAN,
  OwnedProjects,
  type SandboxHost,
  type SandboxInfo,
  type ProjectFilesChanged,
} from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap, validationFailed } from '../error-mapping.js';
import { PreviewTokens } from '../preview/preview-tokens.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { ProjectIndexer } from '../vector/project-indexer.js';
import { PROJECT_FILES_CHANGED, SANDBOX_HOST, SANDBOX_ISOLATION } from '../tokens.js';
import {
  CommandResultResponse,
  CommitResponse,
  CreateDirectoryDto,
  FileContentResponse,
  FileListEntryResponse,
  FileTreeEntryResponse,
  FindErrorsResponse,
  GitCommitDto,
  GitRestoreDto,
  GitResultResponse,
  InterruptCommandDto,
  InterruptCommandResponse,
  PathQuery,
  ReadDirectoryQuery,
  RunCommandDto,
  SandboxInfoResponse,
  SandboxStatusResponse,
  SuccessResponse,
  TreeQuery,
  WriteFileDto,
} from './dto/sandbox.dto.js';
import { checkedPath, hostFailure, isNoSandbox } from './sandbox-errors.js';
import type { SandboxIsolation } from './sandbox-isolation.js';
import { type SandboxFeedEvent, SandboxFeed, type SandboxStatusBody } from './sandbox-feed.js';

/** An SSE client that reads slower than this much backlog is cut off (it reconnects). */
export const MAX_FEED_BACKLOG_BYTES = 4 * 1024 * 1024;

const PROJECT_404 = 'PROJECTS.NOT_FOUND (also another user’s project)';
const SANDBOX_404 = `${PROJECT_404}; SANDBOX.NOT_FOUND before ensure`;
/** What a file route answers for a path it refuses (docs/sandbox-api.md). */
const PATH_400 = 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE, SANDBOX.PATH_TOO_LONG, SANDBOX.LINK_LOOP';

/**
 * A project's sandbox (docs/sandbox-api.md, SPEC §7 Sandbox): files, commands, history, error
 * scan, dev server and the realtime feed. Only the project's creator may use it; anyone else
 * gets PROJECTS.NOT_FOUND. Paths are checked by the domain rule here and again by the host.
 * SPEC §8 fallbacks: history failure → [], find-errors failure → zero counts, commit/restore
 * failure → success false (all logged).
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/sandbox/:id')
export class SandboxController {
  private readonly logger = new Logger('Sandbox');
  /** Commands running with a command_id, by project and id, so interrupt-command can stop them. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    @Inject(OwnedProjects) private readonly owned: OwnedProjects,
    @Inject(SANDBOX_HOST) private readonly host: SandboxHost,
    @Inject(SandboxFeed) private readonly feed: SandboxFeed,
    @Inject(PreviewTokens) private readonly tokens: PreviewTokens,
    // Keeps the project's search index (the assistant's context) in step with every change.
    @Inject(ProjectIndexer) private readonly indexer: ProjectIndexer,
    // Every change to the project's files: the feed and the search index follow.
    @Inject(PROJECT_FILES_CHANGED) private readonly filesChanged: ProjectFilesChanged,
    @Inject(SANDBOX_ISOLATION) private readonly isolation: SandboxIsolation,
  ) {}

  @Post('ensure')
  @HttpCode(200)
  @ApiOperation({ summary: "Create the project's sandbox when missing and start its dev server" })
  @ApiOkResponse({ type: SandboxInfoResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async ensure(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxInfoResponse> {
    await this.own(user, id);
    const info = await this.call(id, () => this.host.ensure(id));
    if (info.machineCreated) void this.indexer.reindexAll(id);
    return this.infoBody(id, info, await this.devState(id));
  }

  @Get('info')
  @ApiOperation({ summary: "The project's sandbox (starts its dev server when stopped)" })
  @ApiOkResponse({ type: SandboxInfoResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async info(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxInfoResponse> {
    await this.own(user, id);
    let state: DevServerState;
    try {
      state = await this.host.devServer(id);
    } catch (error) {
      if (isNoSandbox(error)) throw hostFailure(error, id);
      state = this.unavailable(id, error);
    }
    const info: SandboxInfo = {
      status: state.status,
      message: state.message,
      appName: id,
      projectId: id,
      url: '',
      ipv4Address: null,
      ipv6Address: null,
      machineCreated: false,
    };
    return this.infoBody(id, info, state);
  }

  @Get('read-file')
  @ApiOperation({ summary: "A file's text" })
  @ApiOkResponse({ type: FileContentResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_FILE` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'SANDBOX.TOO_LARGE (a file over 10 MiB)' })
  async readFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Query() query: PathQuery): Promise<FileContentResponse> {
    await this.own(user, id);
    const path = checkedPath(query.path);
    const content = await this.call(id, () => this.host.readFile(id, path), path);
    return { path, content };
  }

  @Post('write-file')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create or replace a file (parent folders are created)' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_FILE` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'PAYLOAD_TOO_LARGE (body over 8 MiB), SANDBOX.DISK_LIMIT' })
  async writeFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: WriteFileDto): Promise<SuccessResponse> {
    await this.own(user, id);
    const path = checkedPath(body.path);
    if (path === '.') throw validationFailed(['path: must name a file, not the project root']);
    await this.call(id, () => this.host.writeFile(id, path, body.content), path);
    this.filesChanged.filesChanged(id, { paths: [path], reason: 'write' });
    return { success: true };
  }

  @Delete('delete-file')
  @ApiOperation({ summary: 'Delete a file or a folder with everything in it' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: PATH_400 })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  async deleteFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Query() query: PathQuery): Promise<SuccessResponse> {
    await this.own(user, id);
    const path = checkedPath(query.path);
    if (path === '.') throw validationFailed(['path: cannot be the project root (use cleanup)']);
    await this.call(id, () => this.host.deleteFile(id, path), path);
    this.filesChanged.filesChanged(id, { paths: [path], reason: 'delete' });
    return { success: true };
  }

  @Get('read-directory')
  @ApiOperation({ summary: "A folder's direct entries" })
  @ApiOkResponse({ type: [FileListEntryResponse] })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_DIRECTORY` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'SANDBOX.TOO_LARGE (over 20,000 entries; with contents over 1,000 entries or 8 MiB)' })
  async readDirectory(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) id: string,
    @Query() query: ReadDirectoryQuery,
  ): Promise<FileListEntryResponse[]> {
    await this.own(user, id);
    const path = checkedPath(query.path ?? '.');
    const options = { includeContents: query.include_contents === 'true', ignorePatterns: query.ignore_patterns ?? [] };
    const entries = await this.call(id, () => this.host.readDirectory(id, path, options), path);
    return entries.map(FileListEntryResponse.from);
  }

  @Get('get-tree')
  @ApiOperation({ summary: 'The file tree under a folder (default ignore list: SPEC §9)' })
  @ApiOkResponse({ type: [FileTreeEntryResponse] })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_DIRECTORY` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'SANDBOX.TOO_LARGE (over 20,000 entries, 8 MiB of names and paths, or 256 levels)' })
  async getTree(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Query() query: TreeQuery): Promise<FileTreeEntryResponse[]> {
    await this.own(user, id);
    const path = checkedPath(query.path ?? '.');
    const tree = await this.call(id, () => this.host.getTree(id, path, query.ignore), path);
    return tree.map((entry) => FileTreeEntryResponse.from(entry));
  }

  @Post('run-command')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run a command in the project (sandboxed, with a timeout); output also streams on the feed under command_id' })
  @ApiOkResponse({ type: CommandResultResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE (working_dir)' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND (working_dir)` })
  async runCommand(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) id: string,
    @Body() body: RunCommandDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommandResultResponse> {
    await this.own(user, id);
    const workingDir = checkedPath(body.working_dir ?? '.');
    const commandId = body.command_id;
    // Stopped by interrupt-command, or when the client goes away before the answer (a closed tab).
    const stop = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) stop.abort();
    };
    res.on('close', onClose);
    const key = commandId === undefined ? null : `${id}/${commandId}`;
    if (key !== null) this.running.set(key, stop);
    const onOutput =
      commandId === undefined
        ? undefined
        : (stream: 'stdout' | 'stderr', text: string) =>
            this.feed.publish(id, { event: 'command-output', data: { command_id: commandId, stream, text } });
    let result: CommandResult;
    try {
      result = await this.call(
        id,
        () => this.host.runCommand(id, body.command, { timeoutSeconds: body.timeout ?? DEFAULT_COMMAND_TIMEOUT_SECONDS, workingDir, onOutput, signal: stop.signal }),
        workingDir,
      );
    } finally {
      res.off('close', onClose);
      if (key !== null && this.running.get(key) === stop) this.running.delete(key);
    }
    if (commandId !== undefined) {
      this.feed.publish(id, { event: 'command-exit', data: { command_id: commandId, exit_code: result.exitCode, timed_out: result.timedOut } });
    }
    // A command may have changed any file: the builder reloads its tree.
    this.filesChanged.filesChanged(id, { paths: [], reason: 'command' });
    return CommandResultResponse.from(result);
  }

  @Post('interrupt-command')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop a running command (Ctrl+C): it ends with exit code 130 and interrupted: true' })
  @ApiOkResponse({ type: InterruptCommandResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async interruptCommand(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: InterruptCommandDto): Promise<InterruptCommandResponse> {
    await this.own(user, id);
    const running = this.running.get(`${id}/${body.command_id}`);
    running?.abort();
    return { interrupted: running !== undefined };
  }

  @Post('create-directory')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a folder and any missing parents' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: PATH_400 })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'SANDBOX.PATH_TAKEN (a file has that name)' })
  async createDirectory(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: CreateDirectoryDto): Promise<SuccessResponse> {
    await this.own(user, id);
    const path = checkedPath(body.path);
    await this.call(id, () => this.host.createDirectory(id, path), path);
    this.filesChanged.filesChanged(id, { paths: [path], reason: 'create-directory' });
    return { success: true };
  }

  @Delete('cleanup')
  @ApiOperation({ summary: 'Remove the sandbox: dev server, files and history' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async cleanup(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SuccessResponse> {
    await this.own(user, id);
    await this.call(id, () => this.host.cleanup(id));
    this.feed.publish(id, { event: 'status', data: await this.feed.statusOf(id, { status: 'stopped', socketPath: null, message: 'The sandbox was removed' }) });
    this.feed.publish(id, { event: 'files-changed', data: { paths: [], reason: 'delete' } });
    void this.indexer.remove(id);
    return { success: true };
  }

  @Post('git/commit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Commit every change (failure is success: false, SPEC §8)' })
  @ApiOkResponse({ type: GitResultResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async gitCommit(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: GitCommitDto): Promise<GitResultResponse> {
    await this.own(user, id);
    try {
      return GitResultResponse.from(await this.host.saveVersion(id, body.message));
    } catch (error) {
      this.logger.warn(`git commit failed for ${id}: ${text(error)}`);
      return { success: false, message: 'Could not save this version' };
    }
  }

  @Get('git/history')
  @ApiOperation({ summary: 'Versions, newest first (failure → [], SPEC §8)' })
  @ApiOkResponse({ type: [CommitResponse] })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async gitHistory(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<CommitResponse[]> {
    await this.own(user, id);
    try {
      return (await this.host.versionHistory(id)).map(CommitResponse.from);
    } catch (error) {
      if (isNoSandbox(error)) throw hostFailure(error, id);
      this.logger.warn(`git history failed for ${id}: ${text(error)}`);
      return [];
    }
  }

  @Post('git/restore')
  @HttpCode(200)
  @ApiOperation({ summary: "Put back a version's files as a new commit (failure is success: false, SPEC §8)" })
  @ApiOkResponse({ type: GitResultResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async gitRestore(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: GitRestoreDto): Promise<GitResultResponse> {
    await this.own(user, id);
    let result: GitResultResponse;
    try {
      result = GitResultResponse.from(await this.host.restoreVersion(id, body.commitHash.toLowerCase()));
    } catch (error) {
      this.logger.warn(`git restore failed for ${id}: ${text(error)}`);
      return { success: false, message: 'Could not restore this version' };
    }
    if (result.success) {
      this.filesChanged.filesChanged(id, { paths: [], reason: 'restore' });
    }
    return result;
  }

  @Post('find-errors')
  @HttpCode(200)
  @ApiOperation({ summary: 'Type-check and lint the project (failure → zero counts, SPEC §8)' })
  @ApiOkResponse({ type: FindErrorsResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async findErrors(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<FindErrorsResponse> {
    await this.own(user, id);
    try {
      return FindErrorsResponse.from(await this.host.findErrors(id));
    } catch (error) {
      if (isNoSandbox(error)) throw hostFailure(error, id);
      this.logger.warn(`find-errors failed for ${id}: ${text(error)}`);
      return FindErrorsResponse.from(EMPTY_ERROR_SCAN);
    }
  }

  @Post('restart-dev')
  @HttpCode(200)
  @ApiOperation({ summary: "Restart the project's dev server (the live preview)" })
  @ApiOkResponse({ type: SandboxStatusResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async restartDev(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxStatusResponse> {
    await this.own(user, id);
    await this.call(id, () => this.host.restartDev(id));
    return this.feed.statusOf(id, await this.devState(id));
  }

  /**
   * The realtime feed as server-sent events: the current status first, then status,
   * files-changed, command-output and command-exit as they happen, and `: ping` every 30 s.
   */
  @Get('events')
  @ApiOperation({ summary: 'Realtime feed (text/event-stream): status, files-changed, command-output, command-exit' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An endless event stream; see docs/sandbox-api.md' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async events(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.own(user, id);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // nginx and similar proxies must not buffer the stream.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);

    let open = true;
    const write = (chunk: string) => {
      if (!open) return;
      if (res.writableLength > MAX_FEED_BACKLOG_BYTES) {
        this.logger.warn(`Feed client for ${id} too slow: disconnected`);
        close();
        return;
      }
      res.write(chunk);
    };
    const send = (event: SandboxFeedEvent) => write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
    const unsubscribe = this.feed.subscribe(id, { send, close: () => close() });
    const ping = setInterval(() => write(': ping\n\n'), this.feed.options.heartbeatMs);
    const close = () => {
      if (!open) return;
      open = false;
      clearInterval(ping);
      unsubscribe();
      res.end();
    };
    res.on('close', close);
    write(': connected\n\n');
    send({ event: 'status', data: await this.currentStatus(id) });
  }

  // ---------------------------------------------------------------------------------------------

  /** PROJECTS.NOT_FOUND unless the caller created the project (and it is not deleted). */
  private async own(user: AccessClaims, id: string): Promise<void> {
    unwrap(await this.owned.find(user.userId, id));
  }

  /** Runs a host call, turning its rejections into API errors (hostFailure). */
  private async call<T>(id: string, work: () => Promise<T>, path?: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw hostFailure(error, id, path);
    }
  }

  /** The dev server's state (starting it); a host failure is reported as 'failed'. */
  private async devState(id: string): Promise<DevServerState> {
    try {
      return await this.host.devServer(id);
    } catch (error) {
      return this.unavailable(id, error);
    }
  }

  private unavailable(id: string, error: unknown): DevServerState {
    this.logger.warn(`dev server state failed for ${id}: ${text(error)}`);
    return { status: 'failed', socketPath: null, message: 'The dev server is not available' };
  }

  private async currentStatus(id: string): Promise<SandboxStatusBody> {
    try {
      return await this.feed.statusOf(id, await this.host.devServer(id));
    } catch (error) {
      if (isNoSandbox(error)) return this.feed.statusOf(id, { status: 'stopped', socketPath: null, message: 'This project has no sandbox yet' });
      return this.feed.statusOf(id, this.unavailable(id, error));
    }
  }

  private async infoBody(id: string, info: SandboxInfo, state: DevServerState): Promise<SandboxInfoResponse> {
    return {
      status: state.status,
      message: state.message,
      app_name: info.appName,
      project_id: id,
      url: await this.tokens.authUrl(id),
      ipv4_address: info.ipv4Address,
      ipv6_address: info.ipv6Address,
      machine_created: info.machineCreated,
      isolated: this.isolation.isolated,
      ...(this.isolation.isolated ? {} : { isolation_warning: this.isolation.reason }),
    };
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
