import type { Knex } from 'knex';

/**
 * The engine versions of the online workers, sorted: what `atmVersion/getAtmVersionList` lists
 * and what a project's default algorithm image version (`projects.image_version`) may be.
 */
export async function onlineEngineVersions(knex: Knex): Promise<string[]> {
  const rows = (await knex('workers').where({ status: 'online' }).distinct('engine_version')) as Array<{ engine_version: string }>;
  return rows.map((r) => String(r.engine_version)).sort();
}
