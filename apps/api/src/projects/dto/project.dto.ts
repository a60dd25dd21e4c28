import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_PROJECT_NAME_LENGTH, type Project } from '@kiln/domain';
import { Transform } from 'class-transformer';
import { IsDefined, IsFQDN, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { iso } from '../../common/wire.js';

const MAX_DOMAIN_LENGTH = 253;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateProjectDto {
  @ApiProperty({ maxLength: MAX_PROJECT_NAME_LENGTH, example: 'My todo app', description: "A blank name becomes 'Untitled project'" })
  @Transform(trim)
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_PROJECT_NAME_LENGTH)
  name!: string;
}

export class UpdateProjectDto {
  @ApiPropertyOptional({ maxLength: MAX_PROJECT_NAME_LENGTH })
  @ValidateIf((o: UpdateProjectDto) => o.name !== undefined)
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_PROJECT_NAME_LENGTH)
  name?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'app.example.com',
    description: 'A host name publishes the project (after the publish check, 402 when the plan does not allow it); null unpublishes it',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : value))
  @IsString()
  @MaxLength(MAX_DOMAIN_LENGTH)
  @IsFQDN({ require_tld: true, allow_underscores: false, allow_trailing_dot: false }, { message: 'must be a host name such as app.example.com' })
  domain?: string | null;
}

/** SPEC §3 Project (project_id repeats id, as SPEC names both). */
export class ProjectResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ format: 'uuid' }) creator_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'my-todo-app-3f2a9c1b7d4e' }) slug!: string;
  @ApiProperty({ enum: ['active', 'archived', 'deleted'] }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Non-null means published' }) domain!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(p: Project): ProjectResponse {
    return {
      id: p.id,
      project_id: p.id,
      creator_id: p.creatorId,
      name: p.name,
      slug: p.slug,
      status: p.status,
      domain: p.domain,
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
    };
  }
}

export class PublishCheckResponse {
  @ApiProperty({ example: true }) allowed!: true;
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string', enum: ['unlimited'] }], example: 'unlimited' })
  limit!: number | 'unlimited';
}
