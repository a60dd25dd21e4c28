import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AiModelInfo } from '@kiln/domain';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_TURN_MESSAGE_LENGTH } from './turn.dto.js';

export const MAX_CHAT_MESSAGES = 200;
export const MAX_CHAT_MESSAGE_LENGTH = 100_000;
export const MAX_INSTRUCTION_LENGTH = 20_000;

export class EnhancePromptDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_TURN_MESSAGE_LENGTH, example: 'a todo app' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(MAX_TURN_MESSAGE_LENGTH)
  prompt!: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  template_id?: string;
}

export class ChatMessageDto {
  @ApiProperty({ enum: ['user', 'assistant', 'system'], description: "'system' messages are read as instructions" })
  @IsDefined({ message: 'is required' })
  @IsIn(['user', 'assistant', 'system'])
  role!: 'user' | 'assistant' | 'system';

  @ApiProperty({ maxLength: MAX_CHAT_MESSAGE_LENGTH })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_CHAT_MESSAGE_LENGTH)
  content!: string;
}

export class SummarizeDto {
  @ApiProperty({ type: [ChatMessageDto], minItems: 1, maxItems: MAX_CHAT_MESSAGES })
  @IsDefined({ message: 'is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHAT_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

  @ApiPropertyOptional({ maxLength: MAX_INSTRUCTION_LENGTH, description: 'What to keep, e.g. "the decisions about the data model"' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_INSTRUCTION_LENGTH)
  instruction?: string;

  @ApiPropertyOptional({ maxLength: MAX_INSTRUCTION_LENGTH, description: 'Extra instructions, read together with `instruction`' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_INSTRUCTION_LENGTH)
  system?: string;
}

export class PlanRequestDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_TURN_MESSAGE_LENGTH })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(MAX_TURN_MESSAGE_LENGTH)
  prompt!: string;

  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsUUID('all', { message: 'must be a project id' })
  project_id!: string;
}

export class QueryDto {
  @ApiProperty({ type: [ChatMessageDto], minItems: 1, maxItems: MAX_CHAT_MESSAGES })
  @IsDefined({ message: 'is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHAT_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

  @ApiPropertyOptional({ description: 'The configured model (GET /api/ai/model `id`); any other is refused with 400' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  model?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ default: false, description: 'Answer as SSE chunk / complete / error events' })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;

  @ApiPropertyOptional({ maxLength: MAX_INSTRUCTION_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_INSTRUCTION_LENGTH)
  system?: string;

  @ApiPropertyOptional({ type: [Object], description: 'Accepted for wire compatibility (with cache_control); not executed: the answer is text' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsObject({ each: true })
  tools?: Record<string, unknown>[];

  @ApiPropertyOptional({ type: Object, description: "{ type: 'text' } (default), or { type: 'json_object' | 'json_schema' } for one JSON object (a schema is not enforced)" })
  @IsOptional()
  @IsObject()
  response_format?: Record<string, unknown>;
}

export class EnhancedPromptResponse {
  @ApiProperty() prompt!: string;
}

export class SummaryResponse {
  @ApiProperty() summary!: string;
}

export class QueryResponse {
  @ApiProperty() content!: string;
  @ApiProperty({ example: 'kiln-offline-1', description: 'The id of the model that answered' }) model!: string;
}

export class ModelResponse {
  @ApiProperty({ example: 'offline' }) provider!: string;
  @ApiProperty({ example: 'kiln-offline-1' }) id!: string;
  @ApiProperty() offline!: boolean;

  static from(model: AiModelInfo): ModelResponse {
    return { provider: model.provider, id: model.id, offline: model.offline };
  }
}
