import type { Knex } from 'knex';

/**
 * Verification codes and what carries them (issue 18):
 * - `outbox`: every e-mail and SMS the product sends, with its delivery state (`pending`, `sent`,
 *   `failed`, or `logged` when no transport is configured: development mode).
 * - `verification_codes`: one row per code sent, by channel, recipient and purpose; only the
 *   SHA-256 of the code is kept; wrong tries are counted; a used code keeps `used_at_ms`. Rows
 *   also count sends per recipient and per client address for the rate limits.
 * - `captchas`: the characters of each captcha picture until it is answered or expires.
 * - `users`: student certification validity, personal settings, deletion time.
 * Times of the guard tables are epoch milliseconds so comparisons are the same on SQLite and MySQL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.string('id', 32).primary();
    t.string('channel', 16).notNullable();
    t.string('recipient', 191).notNullable();
    t.string('purpose', 32).nullable();
    t.string('subject', 200).notNullable();
    t.text('body').notNullable();
    t.string('status', 16).notNullable();
    t.string('error', 500).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('sent_at', { precision: 3 }).nullable();
    t.index(['created_at'], 'outbox_created_idx');
    t.index(['recipient', 'created_at'], 'outbox_recipient_idx');
  });
  await knex.schema.createTable('verification_codes', (t) => {
    t.string('id', 32).primary();
    t.string('channel', 16).notNullable();
    t.string('recipient', 191).notNullable();
    t.string('purpose', 32).notNullable();
    t.string('user_id', 32).nullable();
    t.string('code_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('client_key', 100).notNullable();
    t.bigInteger('created_at_ms').notNullable();
    t.bigInteger('expires_at_ms').notNullable();
    t.bigInteger('used_at_ms').nullable();
    t.index(['channel', 'recipient', 'purpose', 'created_at_ms'], 'verification_codes_recipient_idx');
    t.index(['client_key', 'created_at_ms'], 'verification_codes_client_idx');
  });
  await knex.schema.createTable('captchas', (t) => {
    t.string('id', 32).primary();
    t.string('answer', 16).notNullable();
    t.bigInteger('expires_at_ms').notNullable().index('captchas_expires_idx');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dateTime('student_until', { precision: 3 }).nullable();
    t.text('settings').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('settings');
    t.dropColumn('student_until');
  });
  await knex.schema.dropTable('captchas');
  await knex.schema.dropTable('verification_codes');
  await knex.schema.dropTable('outbox');
}
