import { HttpStatus } from '@nestjs/common';
import { ApiErrorException } from '../error-mapping.js';

/** The template named in clone-template has no index (never indexed, or empty). */
export const VECTOR_TEMPLATE_NOT_FOUND = 'VECTOR.TEMPLATE_NOT_FOUND';

export const templateNotFound = (template: string): ApiErrorException =>
  new ApiErrorException({
    status: HttpStatus.NOT_FOUND,
    body: { code: VECTOR_TEMPLATE_NOT_FOUND, detail: `No index for template ${template}`, template },
  });
