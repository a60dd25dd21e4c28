import { type PipeTransform } from '@nestjs/common';
import { err, projectNotFound } from '@kiln/domain';
import { unwrap } from '../error-mapping.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Project ids are UUIDs: anything else answers the same 404 as a missing project. */
export class ProjectIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) unwrap(err(projectNotFound(value)));
    return value;
  }
}
