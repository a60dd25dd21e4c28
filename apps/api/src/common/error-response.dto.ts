import { ApiProperty } from '@nestjs/swagger';

/** Every error reply: `{ code, detail, ...data }` (error-mapping.ts). */
export class ErrorResponse {
  @ApiProperty({ example: 'VALIDATION_FAILED', description: 'What the client branches on' })
  code!: string;

  @ApiProperty({ example: 'name: must be a string', description: 'The text to show (SPEC §7)' })
  detail!: string;

  @ApiProperty({ required: false, enum: ['credit', 'project', 'published'], description: 'On 402: which upgrade dialog to open' })
  limit_type?: string;
}
