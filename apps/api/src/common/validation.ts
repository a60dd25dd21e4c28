import { ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { validationFailed } from '../error-mapping.js';

/**
 * '<field>: <problem>' — one problem per field, nested fields as 'a.b'. The problem is the first
 * rule that fails reading the DTO's decorators top-down (class-validator lists constraints in
 * registration order, which is bottom-up, so that is the last one): declare the presence and
 * type checks first, and `{ "name": 42 }` answers 'name: must be a string', not a length error.
 * class-validator's messages start with the property name ('name must be a string'); it is
 * dropped since the field already leads.
 */
export function validationProblems(errors: readonly ValidationError[], parent = ''): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // A missing value is the first problem; class-validator checks @IsDefined apart, first.
    const constraint = 'isDefined' in constraints ? 'isDefined' : Object.keys(constraints).at(-1);
    const message = constraint === undefined ? undefined : constraints[constraint];
    if (constraint !== undefined && message !== undefined) {
      problems.push(`${field}: ${constraint === 'whitelistValidation' ? 'is not allowed' : stripProperty(message, error.property)}`);
    }
    problems.push(...validationProblems(error.children ?? [], field));
  }
  return problems;
}

function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/**
 * The global pipe: DTOs are validated with class-validator, unknown fields are refused
 * (whitelist + forbidNonWhitelisted), and the reply is 400 `{ code: 'VALIDATION_FAILED',
 * detail: 'name: must be a string; domain: is not allowed' }`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationFailed(validationProblems(errors as ValidationError[])),
  });
}
