import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type CleanedUp, type DevServerStatus, type FileActionDone, MAX_SANDBOX_PATH_LENGTH } from '@kiln/domain';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { GitResultResponse } from './sandbox.dto.js';

const PATH_DOC = {
  maxLength: MAX_SANDBOX_PATH_LENGTH,
  description: 'Relative to the project root; outside it is 400 SANDBOX.PATH_OUTSIDE, through node_modules or .git 400 SANDBOX.PATH_PROTECTED',
};

export class FileActionPathDto {
  @ApiProperty({ ...PATH_DOC, example: 'src/components/Card.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  path!: string;
}

export class RenameDto {
  @ApiProperty({ ...PATH_DOC, example: 'src/Card.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  from!: string;

  @ApiProperty({ ...PATH_DOC, example: 'src/components/Card.tsx' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SANDBOX_PATH_LENGTH)
  to!: string;
}

export class FileActionResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ description: 'The normalised path the action ended at' }) path!: string;
  @ApiProperty({ type: GitResultResponse, description: 'The version that records it (success false is an answer, SPEC §8)' }) version!: GitResultResponse;

  static from(done: FileActionDone): FileActionResponse {
    return { success: true, path: done.path, version: GitResultResponse.from(done.version) };
  }
}

export class CleanUpResponse {
  @ApiProperty({ type: [String], description: 'Top-level build output and caches removed' }) removed!: string[];
  @ApiProperty({ enum: ['stopped', 'starting', 'running', 'failed'] }) status!: DevServerStatus;
  @ApiPropertyOptional() message?: string;

  static from(cleaned: CleanedUp): CleanUpResponse {
    return { removed: [...cleaned.removed], status: cleaned.state.status, message: cleaned.state.message };
  }
}
