import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_PROJECT_NAME_LENGTH, type Project } from '@kiln/domain';
import { Transform } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { iso } from '../../common/wire.js';

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
}

/** SPEC §3 Project (project_id repeats id, as SPEC names both). */
export class ProjectResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ format: 'uuid' }) creator_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'my-todo-app-3f2a9c1b7d4e' }) slug!: string;
  @ApiProperty({ enum: ['active', 'archived', 'deleted'] }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: "Non-null while published: the site's Kiln host (docs/hosting.md)" }) domain!: string | null;
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
