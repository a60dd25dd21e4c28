import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type AppliedTemplate, type ProjectTemplate, TEMPLATE_IDS } from '@kiln/domain';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { GitResultResponse } from '../../sandbox/dto/sandbox.dto.js';

export class ApplyTemplateDto {
  @ApiProperty({ enum: TEMPLATE_IDS, example: 'landing', description: 'A template of GET /api/templates; another id is 404 TEMPLATES.NOT_FOUND' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(100)
  template_id!: string;
}

export class TemplateResponse {
  @ApiProperty({ enum: TEMPLATE_IDS }) id!: string;
  @ApiProperty({ example: 'Landing page' }) name!: string;
  @ApiProperty() description!: string;

  static from(template: ProjectTemplate): TemplateResponse {
    return { id: template.id, name: template.name, description: template.description };
  }
}

export class ApplyTemplateResponse {
  @ApiProperty({ enum: TEMPLATE_IDS }) template_id!: string;
  @ApiProperty({ type: [String], description: 'The files written (none: the project already was the template)' }) written_files!: string[];
  @ApiPropertyOptional({ type: GitResultResponse, description: "When files were written: the version 'Start from the <name> template' (success false is an answer, SPEC §8)" })
  commit?: GitResultResponse;

  static from(applied: AppliedTemplate): ApplyTemplateResponse {
    const reply = { template_id: applied.templateId, written_files: [...applied.written] };
    return applied.version === undefined ? reply : { ...reply, commit: GitResultResponse.from(applied.version) };
  }
}
