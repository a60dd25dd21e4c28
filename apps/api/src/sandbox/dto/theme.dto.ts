import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type AppliedTheme, isSafeCssValue, isSafeFontUrl, isThemeVariableName, type ThemeApplyOutcome } from '@kiln/domain';
import { ArrayMaxSize, IsArray, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { GitResultResponse } from './sandbox.dto.js';

/** A theme's name is at most this long (parseTheme's limit). */
export const MAX_THEME_NAME_LENGTH = 80;
/** Variables per mode (the presets set 16). */
export const MAX_THEME_VARIABLES = 100;
export const MAX_THEME_VARIABLE_NAME_LENGTH = 100;
/** A CSS value (isSafeCssValue's limit). */
export const MAX_THEME_VALUE_LENGTH = 200;
export const MAX_THEME_FONTS = 10;
/** A font stylesheet URL (isSafeFontUrl's limit). */
export const MAX_THEME_FONT_URL_LENGTH = 500;

/** What is wrong with a mode's variables, or null when parseTheme would accept them. */
function variablesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of CSS variables';
  const entries = Object.entries(value);
  if (entries.length > MAX_THEME_VARIABLES) return `must have at most ${MAX_THEME_VARIABLES} variables`;
  for (const [name, v] of entries) {
    if (name.length > MAX_THEME_VARIABLE_NAME_LENGTH || !isThemeVariableName(name)) {
      return `has a bad variable name "${name.slice(0, 40)}" (letters, digits and dashes, a letter first, at most ${MAX_THEME_VARIABLE_NAME_LENGTH} characters)`;
    }
    if (typeof v !== 'string' || !isSafeCssValue(v)) {
      return `${name}: must be a CSS value of 1 to ${MAX_THEME_VALUE_LENGTH} characters without ";", braces, comment marks or line breaks`;
    }
  }
  return null;
}

/** A mode's variables (`{ primary: 'oklch(…)' }`): each name and value checked as parseTheme does, one problem named. */
function IsThemeVariables(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isThemeVariables',
      validator: {
        validate: (value: unknown) => variablesProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'variables'} ${variablesProblem(args?.value) ?? 'is not valid'}`,
      },
    },
    options,
  );
}

/** A value that cannot break out of its declaration (isSafeCssValue). */
function IsSafeCssValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSafeCssValue',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isSafeCssValue(value),
        defaultMessage: () => `must be a CSS value of 1 to ${MAX_THEME_VALUE_LENGTH} characters without ";", braces, comment marks or line breaks`,
      },
    },
    options,
  );
}

/** An http(s) stylesheet URL that fits in `url('…')` (isSafeFontUrl). */
function IsSafeFontUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSafeFontUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isSafeFontUrl(value),
        defaultMessage: () => 'must be http(s) stylesheet URLs without spaces, quotes, parentheses, backslashes or braces',
      },
    },
    options,
  );
}

const VARIABLES_DOC = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: MAX_THEME_VALUE_LENGTH },
  description: `Variable name (without or with the leading --) → CSS value; at most ${MAX_THEME_VARIABLES}; values without ";", braces, comment marks or line breaks`,
} as const;

/** POST /api/sandbox/{id}/apply-theme: a theme (SPEC §2 theme builder), as the builder's presets and generator make it. */
export class ApplyThemeDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_THEME_NAME_LENGTH, example: 'Ocean' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(MAX_THEME_NAME_LENGTH)
  name!: string;

  @ApiProperty({ ...VARIABLES_DOC, example: { primary: 'oklch(0.55 0.17 245)', background: 'oklch(0.99 0 0)' } })
  @IsDefined({ message: 'is required' })
  @IsObject()
  @IsThemeVariables()
  light!: Record<string, string>;

  @ApiProperty({ ...VARIABLES_DOC, example: { primary: 'oklch(0.7 0.15 245)', background: 'oklch(0.15 0.01 245)' } })
  @IsDefined({ message: 'is required' })
  @IsObject()
  @IsThemeVariables()
  dark!: Record<string, string>;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_THEME_FONTS,
    example: ['https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap'],
    description: 'Font stylesheet URLs; the first names --font-sans',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_THEME_FONTS)
  @IsString({ each: true })
  @MaxLength(MAX_THEME_FONT_URL_LENGTH, { each: true })
  @IsSafeFontUrl({ each: true })
  fonts?: string[];

  @ApiPropertyOptional({ maxLength: MAX_THEME_VALUE_LENGTH, example: '0.75rem', description: 'A CSS length (--radius)' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_THEME_VALUE_LENGTH)
  @IsSafeCssValue()
  radius?: string;
}

export class ApplyThemeResponse {
  @ApiProperty({
    enum: ['applied', 'unchanged', 'kept-original'],
    description: "applied: src/index.css rewritten; unchanged: the theme was applied already, nothing written; kept-original: the stylesheet's braces do not balance, left as it was (SPEC §5)",
  })
  outcome!: ThemeApplyOutcome;

  @ApiProperty({ description: "The theme's name as applied", example: 'Ocean' }) theme!: string;

  @ApiPropertyOptional({ type: GitResultResponse, description: "Applied only: the version 'Apply theme <name>' (success false is an answer, SPEC §8: the theme stays applied)" })
  commit?: GitResultResponse;

  static from(applied: AppliedTheme): ApplyThemeResponse {
    return applied.version === undefined
      ? { outcome: applied.outcome, theme: applied.themeName }
      : { outcome: applied.outcome, theme: applied.themeName, commit: GitResultResponse.from(applied.version) };
  }
}
