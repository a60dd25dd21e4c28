import { ApiProperty } from '@nestjs/swagger';
import { type Attachment, attachmentPublicPath } from '@kiln/domain';
import { iso } from '../common/wire.js';

/** An attachment as the builder sees it. */
export class AttachmentView {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The cleaned name the person gave it' }) name!: string;
  @ApiProperty({ example: 'logo-1a2b3c4d.png', description: 'Its name in the app: public/attachments/<file_name>' }) file_name!: string;
  @ApiProperty({ example: '/attachments/logo-1a2b3c4d.png', description: 'Where the app reaches it once a message carried it' }) path!: string;
  @ApiProperty({ example: 'image/png' }) content_type!: string;
  @ApiProperty() size!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(a: Attachment): AttachmentView {
    return { id: a.id, name: a.name, file_name: a.fileName, path: attachmentPublicPath(a.fileName), content_type: a.contentType, size: a.size, created_at: iso(a.createdAt) };
  }
}
