import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsEmail, IsInt, IsObject, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';

/** A text attribute (names, dates as YYYY-MM-DD, phone numbers). */
const Text = (example?: string) => applyDecorators(ApiPropertyOptional({ type: String, nullable: true, ...(example ? { example } : {}) }), IsOptional(), IsString(), MaxLength(500));
/** A count or amount: a non-negative whole number (SPEC §5). */
const Count = () => applyDecorators(ApiPropertyOptional({ type: Number, nullable: true, minimum: 0 }), IsOptional(), IsInt({ message: 'must be a whole number' }), Min(0));

/** Every marketing contact attribute of SPEC §3; each is optional (an update sends what changed). */
export class ContactAttributesDto {
  @Text('Asha') FIRSTNAME?: string | null;
  @Text('Rao') LASTNAME?: string | null;
  @Text('5551234567') SMS?: string | null;
  @Text('free') PLAN?: string | null;
  @Count() TOTAL_PROMPTS_USED?: number | null;
  @Count() PROMPTS_BALANCE?: number | null;
  @Text('2026-03-01T10:00:00.000Z') LAST_PROMPT_USED_TIMESTAMP?: string | null;
  @Text('2026-03-01') BILLING_CYCLE_START_DATE?: string | null;
  @Text('2026-04-01') BILLING_CYCLE_END_DATE?: string | null;
  @Text('2026-03-01') FIRST_PURCHASE_DATE?: string | null;
  @Text('2026-02-01') SIGNUP_DATE?: string | null;
  @Count() TOTAL_PURCHASE_VALUE?: number | null;
  @Text('IN') COUNTRY?: string | null;
  @Text('Asia/Kolkata') CONTACT_TIMEZONE?: string | null;
  @Text() JOB_TITLE?: string | null;
  @Text() LINKEDIN?: string | null;
  @Text('1990-05-17') DOB?: string | null;
  @Text() WHATSAPP?: string | null;
  @Text() LANDLINE_NUMBER?: string | null;
  @Text() ORGANIZATION?: string | null;
  @Count() PROJECT_COUNT?: number | null;
  @Count() CREDIT_BALANCE?: number | null;
  @Text() EXT_ID?: string | null;
}

export class UpdateContactBody {
  @ApiProperty({ example: 'asha@example.com', description: "The caller's own email" })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'must be an email address' })
  email!: string;

  @ApiProperty({ type: ContactAttributesDto })
  @IsDefined({ message: 'is required' })
  @IsObject()
  @ValidateNested()
  @Type(() => ContactAttributesDto)
  attributes!: ContactAttributesDto;
}

export class EventIdentifiersDto {
  @ApiPropertyOptional({ example: 'asha@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'must be an email address' })
  email_id?: string;

  @ApiPropertyOptional({ description: "The caller's user id" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  ext_id?: string;
}

export class TrackEventBody {
  @ApiProperty({ example: 'project_published' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(255)
  @Matches(/\S/, { message: 'must not be empty' })
  event_name!: string;

  @ApiProperty({ type: EventIdentifiersDto })
  @IsDefined({ message: 'is required' })
  @IsObject()
  @ValidateNested()
  @Type(() => EventIdentifiersDto)
  identifiers!: EventIdentifiersDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }, example: { plan: 'free' } })
  @IsOptional()
  @IsObject()
  event_properties?: Record<string, string | number | boolean>;
}

/** SPEC §7: the reply has success and error. */
export class BrevoReply {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}
