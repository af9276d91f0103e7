import type { Knex } from 'knex';

/**
 * Contact-form entries get a handled mark (issue 18): administrators (`contacts:write`) mark an
 * entry handled with an optional note; who and when is kept. Existing entries stay unhandled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contact_requests', (t) => {
    t.dateTime('handled_at', { precision: 3 }).nullable();
    t.string('handled_by', 32).nullable();
    t.string('handled_note', 500).nullable();
    t.index(['handled_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contact_requests', (t) => {
    t.dropIndex(['handled_at']);
    t.dropColumn('handled_note');
    t.dropColumn('handled_by');
    t.dropColumn('handled_at');
  });
}
