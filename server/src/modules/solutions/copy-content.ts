import type { Knex } from 'knex';
import { newId } from '../../db/ids';

/**
 * What `solution/copy` copies besides the solution row: the decision graph, its code files and
 * the table correlation (`modelling_patterns`), every data scheme (its definition; the copy's data
 * is processed again on demand, so it is `normal` with no processed file), and every reward
 * (`objectives`, code and check result). Trainings, deductions and services are not copied: they
 * belong to the solution that ran them. Runs inside the caller's transaction.
 */
export async function copySolutionContent(knex: Knex, from: string, to: string, user: { id: string }, now: Date): Promise<{ schemes: number; objectives: number; pattern: boolean }> {
  const pattern = (await knex('modelling_patterns').where({ solution_id: from }).first()) as Record<string, unknown> | undefined;
  if (pattern) await knex('modelling_patterns').insert({ ...pattern, solution_id: to, updated_by: user.id, updated_at: now });

  const schemes = (await knex('schemes').where({ solution_id: from }).orderBy('created_at')) as Record<string, unknown>[];
  for (const s of schemes) {
    await knex('schemes').insert({
      ...s,
      id: newId(),
      solution_id: to,
      process_state: 'normal',
      process_job_id: null,
      processed_key: null,
      rows: null,
      creator_id: user.id,
      created_at: now,
      updated_at: now,
    });
  }
  const objectives = (await knex('objectives').where({ solution_id: from }).orderBy('created_at')) as Record<string, unknown>[];
  for (const o of objectives) await knex('objectives').insert({ ...o, id: newId(), solution_id: to, creator_id: user.id, created_at: now, updated_at: now });
  return { schemes: schemes.length, objectives: objectives.length, pattern: Boolean(pattern) };
}
