import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  // The attached assets, in the order given; the asset service owns them, a message response asks it once per page.
  await knex.raw(`ALTER TABLE messages ADD COLUMN asset_ids uuid[] NOT NULL DEFAULT '{}'`);
}
