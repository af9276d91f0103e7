import type { Knex } from 'knex';

/**
 * An environment training keeps its per-node validation scores with the record (issue 17 item
 * 4): `simulators.node_scores`, JSON `{nodes: {<node>: {mae, mse, r2, score, count}}, mae, score,
 * horizon, windows}` measured on the held-out trajectories when the training ends. Null for
 * trainings that ended before (their detail says so).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.alterTable('simulators', (t) => {
    if (mysql) t.text('node_scores', 'longtext').nullable();
    else t.text('node_scores').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('simulators', (t) => {
    t.dropColumn('node_scores');
  });
}
