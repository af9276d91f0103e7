import type { Knex } from 'knex';

/**
 * A scheme's business period and range are optional (issue 16): a table without a time column
 * names none, and the data processing then keeps every row (the period matters only to
 * aggregations, which ask for it). Existing rows keep their values.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schemes', (t) => {
    t.setNullable('period');
    t.setNullable('start_time');
    t.setNullable('end_time');
  });
}

export async function down(knex: Knex): Promise<void> {
  // Rows without a range get the widest one a datetime column holds, then the columns are required again.
  await knex('schemes').whereNull('period').update({ period: 'day' });
  await knex('schemes').whereNull('start_time').update({ start_time: new Date(Date.UTC(1970, 0, 2)) });
  await knex('schemes').whereNull('end_time').update({ end_time: new Date(Date.UTC(2037, 11, 31)) });
  await knex.schema.alterTable('schemes', (t) => {
    t.dropNullable('period');
    t.dropNullable('start_time');
    t.dropNullable('end_time');
  });
}
