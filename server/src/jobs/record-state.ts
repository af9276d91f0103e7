/**
 * One state per record that a job runs for (a training, a deduction): the job's. A record keeps
 * the id of its current job (`job_id`); while it has one, its state is `jobs.state`, the single
 * source, read through a join (`withJobState`, `stateOf`). The record's own `state` column is
 * derived: the state of a record without a job (a copy, a fixture), and for the readers of the
 * table's documented columns (deploy's contract on `policies`) a mirror of its job's, written on
 * each state change (`mirrorJobState`) and brought back in step at start-up (`reconcileStates`)
 * for changes no process was there to hear (a server down while a worker finished a job).
 */
import type { Knex } from 'knex';

/** A row read with {@link withJobState}: the record's columns plus its job's state. */
export type WithJobState = Record<string, unknown> & { job_state?: unknown; state?: unknown };

/**
 * `table as alias` joined with its job (left join on `alias.jobColumn`): selects the record's
 * columns and `job_state`. Read the state with {@link stateOf}.
 */
export function withJobState(knex: Knex, table: string, alias = 't', jobColumn = 'job_id'): Knex.QueryBuilder {
  return knex(`${table} as ${alias}`).leftJoin('jobs as js', 'js.id', `${alias}.${jobColumn}`).select(`${alias}.*`, 'js.state as job_state');
}

/** The state of a record read with {@link withJobState}: its job's, else its own. */
export function stateOf(row: WithJobState): string {
  return String(row.job_state ?? row.state ?? '');
}

/** Writes the mirror `state` of the records of `tables` whose current job is `jobId`. */
export async function mirrorJobState(knex: Knex, tables: readonly string[], jobId: string, state: string): Promise<void> {
  for (const table of tables) await knex(table).where({ job_id: jobId }).whereNot({ state }).update({ state });
}

/**
 * Brings every mirror of `tables` back in step with its job; answers how many records changed.
 * Reads only the records whose mirror differs (a join), so a server in step does one query per table.
 */
export async function reconcileStates(knex: Knex, tables: readonly string[]): Promise<number> {
  let changed = 0;
  for (const table of tables) {
    const stale = (await knex(`${table} as t`).join('jobs as j', 'j.id', 't.job_id').whereRaw('t.state <> j.state').select('t.id as id', 'j.state as state')) as Array<{ id: string; state: string }>;
    for (const r of stale) changed += await knex(table).where({ id: r.id }).update({ state: r.state });
  }
  return changed;
}
