import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  type CodeError,
  type CommandResult,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  type DevServerStatus,
  type ErrorScan,
  errorScanStatus,
  type ErrorScanStatus,
  type FileListEntry,
  type FileTreeEntry,
  MAX_SANDBOX_PATH_LENGTH,
  type SandboxVersion,
  type SaveVersionResult,
} from '@kiln/domain';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { iso } from '../../common/wire.js';

/** Largest file write-file accepts, in characters (the JSON body may be up to SANDBOX_WRITE_BODY_LIMIT_BYTES). */
export const MAX_FILE_CONTENT_LENGTH = 5 * 1024 * 1024;
export const MAX_COMMAND_LENGTH = 10_000;
export const MAX_COMMAND_TIMEOUT_SECONDS = 300;
export const MAX_COMMIT_MESSAGE_LENGTH = 2_000;
/** An ignore list has at most this many names, each at most MAX_IGNORE_PATTERN_LENGTH characters. */
export const MAX_IGNORE_PATTERNS = 200;
export const MAX_IGNORE_PATTERN_LENGTH = 255;
/** A client's id for a run-command, repeated on the feed's command-output and command-exit. */
export const COMMAND_ID = /^[\w-]{1,64}$/;

const PATH_DOC = { maxLength: MAX_SANDBOX_PATH_LENGTH, description: "Relative to the project root ('.' is the root); leaving the project is 400 SANDBOX.PATH_OUTSIDE" };
// A file or folder name, or '*.ext': no slashes, backslashes or control characters.
const IGNORE_PATTERN = /^[^/\\\u0000-\u001f\u007f]+$/;

/** 'a, b,,c' → ['a', 'b', 'c'] (an empty value is an empty list); anything else is left for the validators to refuse. */
const commaList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : value;

// ---------------------------------------------------------------------------------------------
// Requests

export class PathQuery {
  @ApiProperty({ ...PATH_DOC, example: 'src/App.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path!: string;
}

export class ReadDirectoryQuery {
  @ApiPropertyOptional({ ...PATH_DOC, default: '.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: "Include each file's text" })
  @IsOptional()
  @IsIn(['true', 'false'])
  include_contents?: 'true' | 'false';

  @ApiPropertyOptional({ type: String, example: 'node_modules,*.log', description: "Comma-separated names or '*.ext' patterns to leave out" })
  @IsOptional()
  @Transform(commaList)
  @IsArray()
  @ArrayMaxSize(MAX_IGNORE_PATTERNS)
  @IsString({ each: true })
  @MaxLength(MAX_IGNORE_PATTERN_LENGTH, { each: true })
  @Matches(IGNORE_PATTERN, { each: true, message: "each item must be a name or '*.ext' (no slashes)" })
  ignore_patterns?: string[];
}

export class TreeQuery {
  @ApiPropertyOptional({ ...PATH_DOC, default: '.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'node_modules,.git',
    description: "Comma-separated names or '*.ext' patterns to leave out; default the SPEC §9 tree ignore list; empty shows everything",
  })
  @IsOptional()
  @Transform(commaList)
  @IsArray()
  @ArrayMaxSize(MAX_IGNORE_PATTERNS)
  @IsString({ each: true })
  @MaxLength(MAX_IGNORE_PATTERN_LENGTH, { each: true })
  @Matches(IGNORE_PATTERN, { each: true, message: "each item must be a name or '*.ext' (no slashes)" })
  ignore?: string[];
}

export class WriteFileDto {
  @ApiProperty({ ...PATH_DOC, example: 'src/App.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path!: string;

  @ApiProperty({ maxLength: MAX_FILE_CONTENT_LENGTH, description: 'The whole text of the file (UTF-8)' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_FILE_CONTENT_LENGTH)
  content!: string;
}

export class CreateDirectoryDto {
  @ApiProperty({ ...PATH_DOC, example: 'src/components' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path!: string;
}

export class RunCommandDto {
  @ApiProperty({ maxLength: MAX_COMMAND_LENGTH, example: 'npm run build' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_COMMAND_LENGTH)
  command!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_COMMAND_TIMEOUT_SECONDS, default: DEFAULT_COMMAND_TIMEOUT_SECONDS, description: 'Seconds' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_COMMAND_TIMEOUT_SECONDS)
  timeout?: number;

  @ApiPropertyOptional({ ...PATH_DOC, default: '.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  working_dir?: string;

  @ApiPropertyOptional({ maxLength: 64, pattern: COMMAND_ID.source, description: "Streams the output on the feed under this id ('command-output', 'command-exit')" })
  @IsOptional()
  @IsString()
  @Matches(COMMAND_ID, { message: 'must be 1 to 64 letters, digits, _ or -' })
  command_id?: string;
}

/** POST interrupt-command: stop a running command started with this command_id (Ctrl+C). */
export class InterruptCommandDto {
  @ApiProperty({ maxLength: 64, pattern: COMMAND_ID.source })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(COMMAND_ID, { message: 'must be 1 to 64 letters, digits, _ or -' })
  command_id!: string;
}

export class InterruptCommandResponse {
  @ApiProperty({ description: 'false when no command of that id was running in this project' }) interrupted!: boolean;
}

export class GitCommitDto {
  @ApiProperty({ maxLength: MAX_COMMIT_MESSAGE_LENGTH, example: 'Add the todo list' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_COMMIT_MESSAGE_LENGTH)
  message!: string;
}

export class GitRestoreDto {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{4,40}$', example: '3f2a9c1' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/^[0-9a-fA-F]{4,40}$/, { message: 'must be 4 to 40 hexadecimal digits' })
  commitHash!: string;
}

export class GitRestoreFileDto {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{4,40}$', example: '3f2a9c1', description: 'The version whose change to the file is undone' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/^[0-9a-fA-F]{4,40}$/, { message: 'must be 4 to 40 hexadecimal digits' })
  commitHash!: string;

  @ApiProperty({ ...PATH_DOC, example: 'src/App.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path!: string;
}

// ---------------------------------------------------------------------------------------------
// Replies

export class SuccessResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class FileContentResponse {
  @ApiProperty() path!: string;
  @ApiProperty() content!: string;
}

/** SPEC §3 Sandbox info; status and message are the dev server's. */
export class SandboxInfoResponse {
  @ApiProperty({ enum: ['stopped', 'starting', 'running', 'failed'] }) status!: string;
  @ApiProperty() message!: string;
  @ApiProperty() app_name!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ description: 'The live preview for the iframe, with a 1-hour preview token' }) url!: string;
  @ApiProperty({ type: String, nullable: true }) ipv4_address!: string | null;
  @ApiProperty({ type: String, nullable: true }) ipv6_address!: string | null;
  @ApiProperty({ description: 'True when this call created the sandbox' }) machine_created!: boolean;
  @ApiProperty({ description: "False when this server runs project code without isolation (development without bubblewrap): the builder warns" })
  isolated!: boolean;
  @ApiPropertyOptional({ description: 'Why the sandbox is not isolated' }) isolation_warning?: string;
}

export class SandboxStatusResponse {
  @ApiProperty({ enum: ['stopped', 'starting', 'running', 'failed'] }) status!: DevServerStatus;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'The live preview for the iframe, with a 1-hour preview token' }) url!: string;
}

export class FileListEntryResponse {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['file', 'directory'] }) type!: 'file' | 'directory';
  @ApiPropertyOptional({ description: 'With include_contents=true, for files' }) content?: string;

  static from(entry: FileListEntry): FileListEntryResponse {
    return entry.content === undefined ? { name: entry.name, type: entry.type } : { name: entry.name, type: entry.type, content: entry.content };
  }
}

export class FileTreeEntryResponse {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['file', 'directory'] }) type!: 'file' | 'directory';
  @ApiProperty({ description: 'Project-relative' }) path!: string;
  @ApiPropertyOptional({ type: () => [FileTreeEntryResponse], description: 'Directories only' }) children?: FileTreeEntryResponse[];

  static from(entry: FileTreeEntry): FileTreeEntryResponse {
    const base = { name: entry.name, type: entry.type, path: entry.path };
    return entry.children === undefined ? base : { ...base, children: entry.children.map((c) => FileTreeEntryResponse.from(c)) };
  }
}

export class CommandResultResponse {
  @ApiProperty({ description: '124 when stopped at the timeout' }) exit_code!: number;
  @ApiProperty() stdout!: string;
  @ApiProperty() stderr!: string;
  @ApiProperty() timed_out!: boolean;
  @ApiProperty({ description: 'stdout or stderr went over the output cap' }) output_truncated!: boolean;
  @ApiProperty({ description: 'stopped by interrupt-command or by the client going away (exit code 130)' }) interrupted!: boolean;

  static from(r: CommandResult): CommandResultResponse {
    return { exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, timed_out: r.timedOut, output_truncated: r.outputTruncated, interrupted: r.interrupted === true };
  }
}

export class GitResultResponse {
  @ApiProperty({ description: 'false is an answer, not an error (SPEC §8)' }) success!: boolean;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ description: 'The new commit, when one was made' }) hash?: string;

  static from(r: SaveVersionResult): GitResultResponse {
    return r.hash === undefined ? { success: r.success, message: r.message } : { success: r.success, message: r.message, hash: r.hash };
  }
}

export class CommitResponse {
  @ApiProperty() hash!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ format: 'date-time' }) date!: string;
  @ApiProperty({ type: [String] }) files_changed!: string[];

  static from(c: SandboxVersion): CommitResponse {
    return { hash: c.hash, message: c.message, date: iso(c.date), files_changed: [...c.filesChanged] };
  }
}

export class CodeErrorResponse {
  @ApiProperty() message!: string;
  @ApiProperty() file!: string;
  @ApiProperty({ description: '1-based' }) line!: number;
  @ApiProperty({ description: '1-based' }) column!: number;
  @ApiProperty({ enum: ['error', 'warning'] }) severity!: 'error' | 'warning';

  static from(e: CodeError): CodeErrorResponse {
    return { message: e.message, file: e.file, line: e.line, column: e.column, severity: e.severity };
  }
}

export class FindErrorsResponse {
  @ApiProperty({ type: [CodeErrorResponse] }) errors!: CodeErrorResponse[];
  @ApiProperty() error_count!: number;
  @ApiProperty() warning_count!: number;
  @ApiProperty({
    enum: ['checked', 'unavailable'],
    description: "'unavailable': the check could not run; the zero counts (SPEC §8) then mean not checked, never no problems",
  })
  status!: ErrorScanStatus;
  @ApiPropertyOptional({ description: "Why the check could not run (only with status 'unavailable'), safe to show" }) unavailable_reason?: string;

  static from(scan: ErrorScan): FindErrorsResponse {
    return {
      errors: scan.errors.map(CodeErrorResponse.from),
      error_count: scan.errorCount,
      warning_count: scan.warningCount,
      status: errorScanStatus(scan),
      ...(scan.unavailableReason === undefined ? {} : { unavailable_reason: scan.unavailableReason }),
    };
  }
}
