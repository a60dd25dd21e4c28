import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ATTACHMENT_MAX_BYTES, type AccessClaims, GetAttachment, UploadAttachment, attachmentInvalid, attachmentNotFound, attachmentTooLarge, attachmentType, attachmentTypeRefused, err } from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { AttachmentView } from './attachment.dto.js';
import { BodyTooLarge, readCappedBody } from './capped-body.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROJECT_404 = 'PROJECTS.NOT_FOUND (also another user’s project)';

/** The name in X-File-Name: percent-encoded UTF-8 (encodeURIComponent) or plain ASCII. */
function fileNameOf(header: string | undefined): string {
  if (header === undefined || header.length > 1024) unwrap(err(attachmentInvalid('X-File-Name: the file’s name is required (at most 1024 characters).')));
  try {
    return decodeURIComponent(header as string);
  } catch {
    return header as string;
  }
}

/**
 * Files attached to a project's prompts (docs/ai-api.md "Attachments"): the raw bytes as the body,
 * their type in Content-Type and their name in X-File-Name. Owner only.
 */
@ApiTags('ai')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/projects/:id/attachments')
export class AttachmentsController {
  constructor(
    @Inject(UploadAttachment) private readonly upload: UploadAttachment,
    @Inject(GetAttachment) private readonly getAttachment: GetAttachment,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Attach a file (the raw bytes): an image (PNG, JPEG, GIF, WebP, SVG), text, Markdown, CSV or PDF, at most 10 MiB' })
  @ApiConsumes('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'text/plain', 'text/markdown', 'text/csv', 'application/pdf')
  @ApiHeader({ name: 'X-File-Name', required: true, description: 'The file’s name, percent-encoded UTF-8' })
  @ApiCreatedResponse({ type: AttachmentView })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'ATTACHMENTS.INVALID (empty, no name)' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'ATTACHMENTS.TOO_LARGE' })
  @ApiResponse({ status: 415, type: ErrorResponse, description: 'ATTACHMENTS.UNSUPPORTED_TYPE (a type not taken, or bytes that are not of the type)' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'ATTACHMENTS.STORE_UNAVAILABLE' })
  async create(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) id: string,
    @Headers('content-type') contentType: string | undefined,
    @Headers('x-file-name') fileName: string | undefined,
    @Req() req: Request,
  ): Promise<AttachmentView> {
    // The type and the size are refused before the body is read.
    if (attachmentType(contentType ?? '') === null) unwrap(err(attachmentTypeRefused('Only images (PNG, JPEG, GIF, WebP, SVG), text, Markdown, CSV and PDF files can be attached.')));
    const name = fileNameOf(fileName);
    let bytes: Uint8Array;
    try {
      bytes = await readCappedBody(req, ATTACHMENT_MAX_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLarge) unwrap(err(attachmentTooLarge(ATTACHMENT_MAX_BYTES)));
      throw error;
    }
    return AttachmentView.from(unwrap(await this.upload.execute({ projectId: id, userId: user.userId, name, contentType: contentType as string, bytes })));
  }

  @Get(':attachmentId')
  @ApiOperation({ summary: 'An attachment’s bytes (a thumbnail); never served as a page (Content-Disposition: attachment, a sandboxing CSP)' })
  @ApiOkResponse({ description: 'The bytes, with their type' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404}; ATTACHMENTS.NOT_FOUND` })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'ATTACHMENTS.STORE_UNAVAILABLE' })
  async read(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Param('attachmentId') attachmentId: string, @Res() res: Response): Promise<void> {
    if (!UUID.test(attachmentId)) unwrap(err(attachmentNotFound(attachmentId)));
    const { attachment, bytes } = unwrap(await this.getAttachment.execute({ userId: user.userId, projectId: id, id: attachmentId }));
    // An SVG (or anything else) opened directly is a download in a sandbox, never a page of Kiln's origin.
    res.setHeader('Content-Type', attachment.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${attachment.fileName}"`);
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}
