import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_VECTOR_QUERY_LIMIT, MAX_SANDBOX_PATH_LENGTH, type VectorMatch } from '@kiln/domain';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsFileTree, MAX_FILE_TREE_ENTRIES } from '../file-tree.js';

/** The most matches one query may ask for. */
export const MAX_VECTOR_QUERY_LIMIT = 100;
export const MAX_VECTOR_QUERY_LENGTH = 2_000;
/** A template id: a project id (UUID) or a template's name. */
export const MAX_TEMPLATE_ID_LENGTH = 128;

const PROJECT_ID_DOC = { format: 'uuid', description: "The project's id; another user's project is 404 PROJECTS.NOT_FOUND" };
/** One file_tree entry, for the OpenAPI document (validated by IsFileTree, not by this class). */
export class FileTreeItemDoc {
  @ApiProperty({ maxLength: MAX_SANDBOX_PATH_LENGTH, example: 'src/App.tsx' }) path!: string;
  @ApiPropertyOptional({ description: "The file's text; without it the file is read from the project's sandbox" }) content?: string;
  @ApiPropertyOptional({ description: 'As get-tree answers it (ignored)' }) name?: string;
  @ApiPropertyOptional({ enum: ['file', 'directory'] }) type?: 'file' | 'directory';
  @ApiPropertyOptional({ type: () => [FileTreeItemDoc], description: "A folder's entries (only those are read); a folder without children stands for every file under it" })
  children?: FileTreeItemDoc[];
}

const FILE_TREE_DOC = {
  maxItems: MAX_FILE_TREE_ENTRIES,
  description:
    'Files as `{ path, content? }` or the sandbox tree `{ name, type, path, children? }` (get-tree). A file without `content` is read from the ' +
    "project's sandbox; a folder without `children` stands for every file under it ('.' is the whole project). Tree ignore list, binary and huge files are skipped.",
};

// ---------------------------------------------------------------------------------------------
// Requests

export class FullReindexDto {
  @ApiProperty(PROJECT_ID_DOC)
  @IsDefined({ message: 'is required' })
  @IsString()
  project_id!: string;

  @ApiProperty({ ...FILE_TREE_DOC, type: [FileTreeItemDoc] })
  @IsDefined({ message: 'is required' })
  @IsFileTree()
  file_tree!: unknown[];
}

export class PartialReindexDto extends FullReindexDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_FILE_TREE_ENTRIES,
    description: 'Files or folders to drop from the index (Kiln extension; a listed file that is gone from the sandbox is dropped too)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILE_TREE_ENTRIES)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(MAX_SANDBOX_PATH_LENGTH, { each: true })
  removed?: string[];
}

export class CloneTemplateDto {
  @ApiProperty({
    maxLength: MAX_TEMPLATE_ID_LENGTH,
    example: 'starter',
    description: "The template: a template's name (lower-case letters, digits, '-') or the id of one of your own projects",
  })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_TEMPLATE_ID_LENGTH)
  template!: string;

  @ApiProperty(PROJECT_ID_DOC)
  @IsDefined({ message: 'is required' })
  @IsString()
  project_id!: string;
}

/** '12' → 12 (query strings are text); anything else is left for the validators to refuse. */
const integerText = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value);

export class VectorQueryDto {
  @ApiProperty({ maxLength: MAX_VECTOR_QUERY_LENGTH, example: 'checkout button' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_VECTOR_QUERY_LENGTH)
  query!: string;

  @ApiProperty(PROJECT_ID_DOC)
  @IsDefined({ message: 'is required' })
  @IsString()
  project_id!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_VECTOR_QUERY_LIMIT, default: DEFAULT_VECTOR_QUERY_LIMIT, description: 'SPEC §9: 10' })
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(1)
  @Max(MAX_VECTOR_QUERY_LIMIT)
  limit?: number;
}

// ---------------------------------------------------------------------------------------------
// Replies

export class ReindexResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ description: 'Files the index now holds from this request' }) indexed_files!: number;
  @ApiProperty({ description: 'Files given or found that the index leaves out (ignored, binary, too large)' }) skipped_files!: number;
  @ApiProperty({ type: [String], description: 'Paths dropped from the index (removed, gone from the sandbox, folders read again)' })
  removed_paths!: string[];
}

export class CloneTemplateResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ description: 'Files the project’s index holds after the copy' }) indexed_files!: number;
}

export class VectorMatchResponse {
  @ApiProperty({ example: 'src/components/Checkout.tsx' }) path!: string;
  @ApiProperty({ description: 'Higher is closer; comparable within one answer' }) score!: number;
  @ApiProperty({ description: 'The best-matching lines (at most 240 characters)' }) snippet!: string;

  static from(match: VectorMatch): VectorMatchResponse {
    return { path: match.path, score: match.score, snippet: match.snippet };
  }
}
