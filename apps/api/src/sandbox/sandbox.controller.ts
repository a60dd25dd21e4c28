import { Body, Controller, Delete, Get, HttpCode, Inject, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  CreateProjectDirectory,
  DeleteProjectFile,
  type DevServerState,
  EnsureSandbox,
  FindProjectErrors,
  GetProjectTree,
  GetSandboxStatus,
  InterruptProjectCommand,
  ListProjectVersions,
  ReadProjectDirectory,
  ReadProjectFile,
  RemoveSandbox,
  RestartDevServer,
  RestoreProjectFile,
  RestoreProjectVersion,
  type Result,
  RunProjectCommand,
  type SandboxInfo,
  SaveProjectVersion,
  WriteProjectFile,
  type DomainError,
} from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { abortOnClose } from '../common/abort-on-close.js';
import { PreviewTokens } from '../preview/preview-tokens.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { SANDBOX_ISOLATION } from '../tokens.js';
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
  GitRestoreFileDto,
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
import { hostCall } from './sandbox-errors.js';
import type { SandboxIsolation } from './sandbox-isolation.js';
import { type SandboxFeedEvent, SandboxFeed } from './sandbox-feed.js';

/** An SSE client that reads slower than this much backlog is cut off (it reconnects). */
export const MAX_FEED_BACKLOG_BYTES = 4 * 1024 * 1024;

const PROJECT_404 = 'PROJECTS.NOT_FOUND (also another user’s project)';
const SANDBOX_404 = `${PROJECT_404}; SANDBOX.NOT_FOUND before ensure`;
/** What a file route answers for a path it refuses (docs/sandbox-api.md). */
const PATH_400 = 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE, SANDBOX.PATH_TOO_LONG, SANDBOX.LINK_LOOP';

/** The use cases behind the routes (domain/sandbox/use-cases), one per route. */
export interface SandboxUseCases {
  readonly ensure: EnsureSandbox;
  readonly status: GetSandboxStatus;
  readonly restartDev: RestartDevServer;
  readonly remove: RemoveSandbox;
  readonly readFile: ReadProjectFile;
  readonly writeFile: WriteProjectFile;
  readonly deleteFile: DeleteProjectFile;
  readonly createDirectory: CreateProjectDirectory;
  readonly readDirectory: ReadProjectDirectory;
  readonly tree: GetProjectTree;
  readonly run: RunProjectCommand;
  readonly interrupt: InterruptProjectCommand;
  readonly save: SaveProjectVersion;
  readonly history: ListProjectVersions;
  readonly restore: RestoreProjectVersion;
  readonly restoreFile: RestoreProjectFile;
  readonly findErrors: FindProjectErrors;
}

/**
 * A project's sandbox (docs/sandbox-api.md, SPEC §7 Sandbox): files, commands, history, error
 * scan, dev server and the realtime feed. Each route is DTO → use case → response; the use cases
 * check that the caller created the project (anyone else gets PROJECTS.NOT_FOUND), check paths,
 * tell the builder and the index what changed and apply the SPEC §8 fallbacks. A host rejection
 * becomes its API error here (hostFailure).
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/sandbox/:id')
export class SandboxController {
  private readonly logger = new Logger('Sandbox');
  private readonly use: SandboxUseCases;

  constructor(
    @Inject(EnsureSandbox) ensure: EnsureSandbox,
    @Inject(GetSandboxStatus) status: GetSandboxStatus,
    @Inject(RestartDevServer) restartDev: RestartDevServer,
    @Inject(RemoveSandbox) remove: RemoveSandbox,
    @Inject(ReadProjectFile) readFile: ReadProjectFile,
    @Inject(WriteProjectFile) writeFile: WriteProjectFile,
    @Inject(DeleteProjectFile) deleteFile: DeleteProjectFile,
    @Inject(CreateProjectDirectory) createDirectory: CreateProjectDirectory,
    @Inject(ReadProjectDirectory) readDirectory: ReadProjectDirectory,
    @Inject(GetProjectTree) tree: GetProjectTree,
    @Inject(RunProjectCommand) run: RunProjectCommand,
    @Inject(InterruptProjectCommand) interrupt: InterruptProjectCommand,
    @Inject(SaveProjectVersion) save: SaveProjectVersion,
    @Inject(ListProjectVersions) history: ListProjectVersions,
    @Inject(RestoreProjectVersion) restore: RestoreProjectVersion,
    @Inject(RestoreProjectFile) restoreFile: RestoreProjectFile,
    @Inject(FindProjectErrors) findErrors: FindProjectErrors,
    @Inject(SandboxFeed) private readonly feed: SandboxFeed,
    @Inject(PreviewTokens) private readonly tokens: PreviewTokens,
    @Inject(SANDBOX_ISOLATION) private readonly isolation: SandboxIsolation,
  ) {
    this.use = { ensure, status, restartDev, remove, readFile, writeFile, deleteFile, createDirectory, readDirectory, tree, run, interrupt, save, history, restore, restoreFile, findErrors };
  }

  @Post('ensure')
  @HttpCode(200)
  @ApiOperation({ summary: "Create the project's sandbox when missing and start its dev server" })
  @ApiOkResponse({ type: SandboxInfoResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async ensure(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxInfoResponse> {
    const { info, state } = await this.call(id, () => this.use.ensure.execute(user.userId, id));
    return this.infoBody(id, info, state);
  }

  @Get('info')
  @ApiOperation({ summary: "The project's sandbox (starts its dev server when stopped)" })
  @ApiOkResponse({ type: SandboxInfoResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async info(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxInfoResponse> {
    const state = await this.call(id, () => this.use.status.execute(user.userId, id, 'reject'));
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
    const { path, value } = await this.call(id, () => this.use.readFile.execute(user.userId, id, query.path), query.path);
    return { path, content: value };
  }

  @Post('write-file')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create or replace a file (parent folders are created)' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_FILE` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'PAYLOAD_TOO_LARGE (body over 8 MiB), SANDBOX.DISK_LIMIT' })
  async writeFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: WriteFileDto): Promise<SuccessResponse> {
    await this.call(id, () => this.use.writeFile.execute(user.userId, id, body.path, body.content), body.path);
    return { success: true };
  }

  @Delete('delete-file')
  @ApiOperation({ summary: 'Delete a file or a folder with everything in it' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: PATH_400 })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  async deleteFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Query() query: PathQuery): Promise<SuccessResponse> {
    await this.call(id, () => this.use.deleteFile.execute(user.userId, id, query.path), query.path);
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
    const path = query.path ?? '.';
    const options = { includeContents: query.include_contents === 'true', ignorePatterns: query.ignore_patterns ?? [] };
    const { value } = await this.call(id, () => this.use.readDirectory.execute(user.userId, id, path, options), path);
    return value.map(FileListEntryResponse.from);
  }

  @Get('get-tree')
  @ApiOperation({ summary: 'The file tree under a folder (default ignore list: SPEC §9)' })
  @ApiOkResponse({ type: [FileTreeEntryResponse] })
  @ApiResponse({ status: 400, type: ErrorResponse, description: `${PATH_400}, SANDBOX.NOT_A_DIRECTORY` })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${SANDBOX_404}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'SANDBOX.TOO_LARGE (over 20,000 entries, 8 MiB of names and paths, or 256 levels)' })
  async getTree(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Query() query: TreeQuery): Promise<FileTreeEntryResponse[]> {
    const path = query.path ?? '.';
    const { value } = await this.call(id, () => this.use.tree.execute(user.userId, id, path, query.ignore), path);
    return value.map((entry) => FileTreeEntryResponse.from(entry));
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
    const workingDir = body.working_dir ?? '.';
    const result = await this.call(
      id,
      () =>
        this.use.run.execute({
          userId: user.userId,
          projectId: id,
          command: body.command,
          ...(body.command_id === undefined ? {} : { commandId: body.command_id }),
          ...(body.timeout === undefined ? {} : { timeoutSeconds: body.timeout }),
          workingDir,
          // A closed tab stops the command.
          signal: abortOnClose(res),
        }),
      workingDir,
    );
    return CommandResultResponse.from(result);
  }

  @Post('interrupt-command')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop a running command (Ctrl+C): it ends with exit code 130 and interrupted: true' })
  @ApiOkResponse({ type: InterruptCommandResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async interruptCommand(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: InterruptCommandDto): Promise<InterruptCommandResponse> {
    return { interrupted: unwrap(await this.use.interrupt.execute(user.userId, id, body.command_id)) };
  }

  @Post('create-directory')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a folder and any missing parents' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: PATH_400 })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'SANDBOX.PATH_TAKEN (a file has that name)' })
  async createDirectory(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: CreateDirectoryDto): Promise<SuccessResponse> {
    await this.call(id, () => this.use.createDirectory.execute(user.userId, id, body.path), body.path);
    return { success: true };
  }

  @Delete('cleanup')
  @ApiOperation({ summary: 'Remove the sandbox: dev server, files and history' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async cleanup(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SuccessResponse> {
    await this.call(id, () => this.use.remove.execute(user.userId, id));
    return { success: true };
  }

  @Post('git/commit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Commit every change (failure is success: false, SPEC §8)' })
  @ApiOkResponse({ type: GitResultResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async gitCommit(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: GitCommitDto): Promise<GitResultResponse> {
    return GitResultResponse.from(unwrap(await this.use.save.execute(user.userId, id, body.message)));
  }

  @Get('git/history')
  @ApiOperation({ summary: 'Versions, newest first (failure → [], SPEC §8)' })
  @ApiOkResponse({ type: [CommitResponse] })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async gitHistory(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<CommitResponse[]> {
    return (await this.call(id, () => this.use.history.execute(user.userId, id))).map(CommitResponse.from);
  }

  @Post('git/restore')
  @HttpCode(200)
  @ApiOperation({ summary: "Put back a version's files as a new commit (failure is success: false, SPEC §8)" })
  @ApiOkResponse({ type: GitResultResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async gitRestore(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: GitRestoreDto): Promise<GitResultResponse> {
    return GitResultResponse.from(unwrap(await this.use.restore.execute(user.userId, id, body.commitHash)));
  }

  @Post('git/restore-file')
  @HttpCode(200)
  @ApiOperation({ summary: "Undo one file of a version: the file as it was before that version (deleted if the version added it), as a new commit (failure is success: false, SPEC §8)" })
  @ApiOkResponse({ type: GitResultResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE, SANDBOX.PATH_TOO_LONG' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async gitRestoreFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: GitRestoreFileDto): Promise<GitResultResponse> {
    return GitResultResponse.from(unwrap(await this.use.restoreFile.execute(user.userId, id, { hash: body.commitHash, path: body.path })));
  }

  @Post('find-errors')
  @HttpCode(200)
  @ApiOperation({ summary: 'Type-check and lint the project (failure → zero counts, SPEC §8)' })
  @ApiOkResponse({ type: FindErrorsResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async findErrors(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<FindErrorsResponse> {
    return FindErrorsResponse.from(await this.call(id, () => this.use.findErrors.execute(user.userId, id)));
  }

  @Post('restart-dev')
  @HttpCode(200)
  @ApiOperation({ summary: "Restart the project's dev server (the live preview)" })
  @ApiOkResponse({ type: SandboxStatusResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: SANDBOX_404 })
  async restartDev(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<SandboxStatusResponse> {
    return this.feed.statusOf(id, await this.call(id, () => this.use.restartDev.execute(user.userId, id)));
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
    // Checked before the stream starts: someone else's project is a plain 404.
    const state = unwrap(await this.use.status.execute(user.userId, id, 'stopped'));
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
    send({ event: 'status', data: await this.feed.statusOf(id, state) });
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Runs a use case: its domain error becomes the mapped reply (unwrap), a host rejection its API
   * error (hostFailure: a missing sandbox, file or folder, a refused path, a limit).
   */
  private call<T>(id: string, work: () => Promise<Result<T, DomainError>>, path?: string): Promise<T> {
    return hostCall(id, path, work);
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
