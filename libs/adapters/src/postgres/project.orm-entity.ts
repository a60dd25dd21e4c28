import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Table `projects`. A non-null domain on an active project means it is published. */
@Entity({ name: 'projects' })
export class ProjectOrmEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'creator_id', type: 'text' })
  creatorId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', unique: true })
  slug!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  domain!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
