import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ACTIVITY_DAYS, MAX_EVENTS_PER_BATCH, MIN_ACTIVITY_DAYS } from '@kiln/domain';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  Validate,
} from 'class-validator';

export const MAX_EVENT_TEXT = 100;
export const MAX_PROPERTIES = 20;
export const MAX_PROPERTY_VALUE = 500;

/** Flat properties: at most 20 keys of ≤ 100 characters, values text (≤ 500), numbers, booleans or null. */
@ValidatorConstraint({ name: 'trackingProperties' })
class TrackingPropertiesRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return (
      entries.length <= MAX_PROPERTIES &&
      entries.every(
        ([key, v]) =>
          key.length <= MAX_EVENT_TEXT &&
          (v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= MAX_PROPERTY_VALUE)),
      )
    );
  }
  defaultMessage(_args: ValidationArguments): string {
    return `must be an object of at most ${MAX_PROPERTIES} text (≤ ${MAX_PROPERTY_VALUE} characters), number, boolean or null values`;
  }
}

/**
 * One tracking event. Only types and sizes are checked here; SPEC §5's rules (a non-empty
 * name, category and action, a numeric planPrice) are the domain's, with their messages.
 */
export class TrackingEventDto {
  @ApiProperty({ enum: ['custom', 'page', 'purchase'] })
  @IsDefined({ message: 'is required' })
  @IsIn(['custom', 'page', 'purchase'])
  kind!: 'custom' | 'page' | 'purchase';

  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT, example: 'page_view' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_EVENT_TEXT)
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { page_path: '/pricing' } })
  @IsOptional()
  @Validate(TrackingPropertiesRule)
  properties?: Record<string, string | number | boolean | null>;

  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT }) @IsOptional() @IsString() @MaxLength(MAX_EVENT_TEXT) category?: string;
  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT }) @IsOptional() @IsString() @MaxLength(MAX_EVENT_TEXT) action?: string;
  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT }) @IsOptional() @IsString() @MaxLength(MAX_EVENT_TEXT) label?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) value?: number;
  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT }) @IsOptional() @IsString() @MaxLength(MAX_EVENT_TEXT) planId?: string;
  @ApiPropertyOptional({ maxLength: MAX_EVENT_TEXT }) @IsOptional() @IsString() @MaxLength(MAX_EVENT_TEXT) planName?: string;

  @ApiPropertyOptional({ type: Number, description: 'In major units; anything but a non-negative number is refused with SPEC §5’s message' })
  @Allow()
  planPrice?: unknown;

  @ApiPropertyOptional({ enum: ['USD', 'INR'] }) @IsOptional() @IsIn(['USD', 'INR']) currency?: 'USD' | 'INR';
}

export class TrackingEventsDto {
  @ApiProperty({ type: [TrackingEventDto], maxItems: MAX_EVENTS_PER_BATCH })
  @IsDefined({ message: 'is required' })
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => TrackingEventDto)
  events!: TrackingEventDto[];
}

export class DailyActivityQuery {
  @ApiPropertyOptional({ minimum: MIN_ACTIVITY_DAYS, maximum: MAX_ACTIVITY_DAYS, default: 30 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(MIN_ACTIVITY_DAYS)
  @Max(MAX_ACTIVITY_DAYS)
  days?: number;
}
