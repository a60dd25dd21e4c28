import type { DomainError } from '../shared/domain-error.js';

/** The theme is not one parseTheme accepts (the API's DTO refuses most such bodies first). */
export type ThemeInvalid = DomainError<'VALIDATION_FAILED'>;

export const themeInvalid = (): ThemeInvalid => ({
  code: 'VALIDATION_FAILED',
  message:
    'theme: must have a name, light and dark CSS variables with safe values (no ";", braces, comment marks or line breaks), http(s) font stylesheet URLs and an optional radius',
});
