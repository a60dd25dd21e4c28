import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsUUID } from 'class-validator';

export class ProvisionDatabaseDto {
  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'is required' })
  @IsUUID('all', { message: 'must be a project id' })
  project_id!: string;
}

export class DeleteDatabaseQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'true drops the database and its data; false detaches it (data kept, reattached by provision)' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  deleteFromProvider?: 'true' | 'false';
}

/** What the generated app needs to reach its data: never a password or a server-side secret. */
export class ProvisionDatabaseResponse {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ example: 'abcdefghij0123456789', description: 'The database ref (public: it is in the data origin)' }) ref!: string;
  @ApiProperty({ example: 'http://abcdefghij0123456789.data.localhost:3000', description: 'The data origin (supabase-js createClient URL)' }) url!: string;
  @ApiProperty({ description: 'HS256 JWT { role: anon, ref, iss: kiln } signed with the project’s secret (supabase-js anon key)' }) anon_key!: string;
  @ApiProperty({ enum: [true] }) connected!: true;
}

export class DatabaseColumnResponse {
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty() nullable!: boolean;
}

export class DatabaseTableResponse {
  @ApiProperty({ example: 'public' }) schema!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Whether row-level security is on (publishing is refused while any table has it off)' }) rls_enabled!: boolean;
  @ApiProperty({ description: 'PostgreSQL’s estimate of the row count' }) row_estimate!: number;
  @ApiProperty({ type: [DatabaseColumnResponse] }) columns!: DatabaseColumnResponse[];
}

export class DatabaseCheckResponse {
  @ApiProperty() connected!: boolean;
  @ApiPropertyOptional({ description: 'Present when connected' }) ref?: string;
  @ApiPropertyOptional() url?: string;
  @ApiPropertyOptional({ description: 'Present when connected: the same anon key as provision answers (public by design)' }) anon_key?: string;
  @ApiProperty() size_bytes!: number;
  @ApiPropertyOptional({ description: 'The plan’s size quota in bytes' }) quota_bytes?: number;
  @ApiPropertyOptional({ description: 'Past the quota: the data API refuses writes' }) over_quota?: boolean;
  @ApiPropertyOptional({ description: 'The plan’s connection limit' }) max_connections?: number;
  @ApiProperty({ type: [DatabaseTableResponse] }) tables!: DatabaseTableResponse[];
}

export class DeleteDatabaseResponse {
  @ApiProperty() ref!: string;
  @ApiProperty({ description: 'true: dropped with its data; false: detached, data kept' }) deleted_from_provider!: boolean;
  @ApiProperty({ enum: [false] }) connected!: false;
}
