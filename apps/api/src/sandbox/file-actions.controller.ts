import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  CleanUpProject,
  CreateProjectFile,
  CreateProjectFolder,
  DeleteProjectPath,
  ExportProject,
  RenameProjectPath,
} from '@kiln/domain';
import { openProjectZip } from '@kiln/adapters';
import type { Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { CleanUpResponse, FileActionPathDto, FileActionResponse, RenameDto } from './dto/file-actions.dto.js';
import { hostCall, hostFailure } from './sandbox-errors.js';

const NOT_FOUND = 'PROJECTS.NOT_FOUND (also another user’s project); SANDBOX.NOT_FOUND before ensure';
const REFUSED = 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE, SANDBOX.PATH_TOO_LONG, SANDBOX.LINK_LOOP, SANDBOX.PATH_PROTECTED (node_modules, .git, caches)';
const BUSY = 'PROJECTS.BUSY: an AI turn is running or waiting in this project';

/**
 * The builder's file-tree actions (issue #17 item 8, docs/sandbox-api.md "File-tree actions"):
 * each under the project's turn lock, recorded as a version; Clean up; Export as zip. SPEC §7's
 * file routes (delete-file, create-directory) stay as they are for other callers.
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/sandbox/:id')
export class FileActionsController {
  constructor(
    @Inject(CreateProjectFile) private readonly newFile: CreateProjectFile,
    @Inject(CreateProjectFolder) private readonly newFolder: CreateProjectFolder,
    @Inject(RenameProjectPath) private readonly renamePath: RenameProjectPath,
    @Inject(DeleteProjectPath) private readonly deletePath: DeleteProjectPath,
    @Inject(CleanUpProject) private readonly cleanUpProject: CleanUpProject,
    @Inject(ExportProject) private readonly exportProject: ExportProject,
  ) {}

  @Post('actions/new-file')
  @HttpCode(200)
  @ApiOperation({ summary: "New file: an empty file, saved as the version 'Create <path>'" })
  @ApiOkResponse({ type: FileActionResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: REFUSED })
  @ApiResponse({ status: 404, type: ErrorResponse, description: NOT_FOUND })
  @ApiResponse({ status: 409, type: ErrorResponse, description: `SANDBOX.PATH_TAKEN; ${BUSY}` })
  async createFile(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: FileActionPathDto): Promise<FileActionResponse> {
    return FileActionResponse.from(await hostCall(id, body.path, () => this.newFile.execute(user.userId, id, body.path)));
  }

  @Post('actions/new-folder')
  @HttpCode(200)
  @ApiOperation({ summary: 'New folder (and missing parents)' })
  @ApiOkResponse({ type: FileActionResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: REFUSED })
  @ApiResponse({ status: 404, type: ErrorResponse, description: NOT_FOUND })
  @ApiResponse({ status: 409, type: ErrorResponse, description: `SANDBOX.PATH_TAKEN (a file has that name); ${BUSY}` })
  async createFolder(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: FileActionPathDto): Promise<FileActionResponse> {
    return FileActionResponse.from(await hostCall(id, body.path, () => this.newFolder.execute(user.userId, id, body.path)));
  }

  @Post('actions/rename')
  @HttpCode(200)
  @ApiOperation({ summary: "Rename or move a file or folder to a free name, saved as the version 'Rename <from> to <to>'" })
  @ApiOkResponse({ type: FileActionResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: REFUSED })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${NOT_FOUND}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 409, type: ErrorResponse, description: `SANDBOX.PATH_TAKEN; ${BUSY}` })
  async rename(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: RenameDto): Promise<FileActionResponse> {
    return FileActionResponse.from(await hostCall(id, body.to, () => this.renamePath.execute(user.userId, id, body.from, body.to)));
  }

  @Post('actions/delete')
  @HttpCode(200)
  @ApiOperation({ summary: "Delete a file or a folder with everything in it, saved as the version 'Delete <path>'" })
  @ApiOkResponse({ type: FileActionResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: REFUSED })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${NOT_FOUND}; SANDBOX.FILE_NOT_FOUND` })
  @ApiResponse({ status: 409, type: ErrorResponse, description: BUSY })
  async delete(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: FileActionPathDto): Promise<FileActionResponse> {
    return FileActionResponse.from(await hostCall(id, body.path, () => this.deletePath.execute(user.userId, id, body.path)));
  }

  @Post('actions/clean-up')
  @HttpCode(200)
  @ApiOperation({ summary: 'Clean up: remove top-level build output and caches (never your files or installed packages), restart the dev server' })
  @ApiOkResponse({ type: CleanUpResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: NOT_FOUND })
  @ApiResponse({ status: 409, type: ErrorResponse, description: BUSY })
  async cleanUp(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<CleanUpResponse> {
    return CleanUpResponse.from(await hostCall(id, undefined, () => this.cleanUpProject.execute(user.userId, id)));
  }

  @Get('export.zip')
  @ApiOperation({ summary: 'Export as zip: the project files without installed packages, caches, git or .env files (at most 64 MiB of files)' })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, description: 'A zip, streamed' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: NOT_FOUND })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'SANDBOX.TOO_LARGE' })
  async exportZip(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Res() res: Response): Promise<void> {
    const files = await hostCall(id, undefined, () => this.exportProject.execute(user.userId, id));
    // The first file is read before any header is sent: a refusal is still a status.
    const zip = await openProjectZip(files, { mtime: new Date() }).catch((error: unknown) => Promise.reject(hostFailure(error, id)));
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="kiln-${id}.zip"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    zip.on('error', () => res.destroy());
    res.on('close', () => zip.destroy());
    zip.pipe(res);
  }
}

