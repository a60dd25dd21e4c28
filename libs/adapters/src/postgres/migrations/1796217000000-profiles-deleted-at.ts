import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion hides the profile everywhere (issue #17 item 4): `deleted_at` is set once and
 * every profile lookup skips such rows. The referral code stays unique, so it is never reissued.
 */
export class ProfilesDeletedAt1796217000000 implements MigrationInterface {
  name = 'ProfilesDeletedAt1796217000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles ADD COLUMN deleted_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles DROP COLUMN deleted_at');
  }
}
