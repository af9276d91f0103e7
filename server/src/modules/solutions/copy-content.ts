import type { Knex } from 'knex';
import { newId } from '../../db/ids';
import { JobState } from '../../jobs/states';
import { artifactPrefix } from '../storage/artefact-keys';
import type { BlobOwner, BlobStore } from '../storage/blob-store';
import { chargeStorage } from '../storage/quota';
import { artefactFiles } from '../modelling/training-rules';

type Row = Record<string, unknown>;

/** Old id -> new id of the records a copy made, per table. */
export interface CopiedIds {
  schemes: Map<string, string>;
  objectives: Map<string, string>;
}

/**
 * What `solution/copy` copies besides the solution row: the decision graph, its code files and
 * the table correlation (`modelling_patterns`), every data scheme (its definition; the copy's data
 * is processed again on demand, so it is `normal` with no processed file), and every reward
 * (`objectives`, code and check result). Trainings, deductions and services are not copied here
 * (see {@link copyTrainedModels}). Runs inside the caller's transaction.
 */
export async function copySolutionContent(knex: Knex, from: string, to: string, user: { id: string }, now: Date): Promise<{ schemes: number; objectives: number; pattern: boolean; ids: CopiedIds }> {
  const ids: CopiedIds = { schemes: new Map(), objectives: new Map() };
  const pattern = (await knex('modelling_patterns').where({ solution_id: from }).first()) as Row | undefined;
  if (pattern) await knex('modelling_patterns').insert({ ...pattern, solution_id: to, updated_by: user.id, updated_at: now });

  const schemes = (await knex('schemes').where({ solution_id: from }).orderBy('created_at')) as Row[];
  for (const s of schemes) {
    const id = newId();
    ids.schemes.set(String(s.id), id);
    await knex('schemes').insert({
      ...s,
      id,
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
  const objectives = (await knex('objectives').where({ solution_id: from }).orderBy('created_at')) as Row[];
  for (const o of objectives) {
    const id = newId();
    ids.objectives.set(String(o.id), id);
    await knex('objectives').insert({ ...o, id, solution_id: to, creator_id: user.id, created_at: now, updated_at: now });
  }
  return { schemes: schemes.length, objectives: objectives.length, pattern: Boolean(pattern), ids };
}

/** States of a finished training whose artefacts a copy can take. */
const FINISHED: readonly string[] = [JobState.successful, JobState.stoppedManually];

/**
 * The trained models of a solution copied into its copy (`solution/copy` with `withModels`):
 * every finished environment training (job `successful` or stopped by hand, with artefacts) and
 * every finished policy training on one of them, each with its own copy of the artefact files
 * under the copying user's prefix, charged to that user's quota (`storageInsufficient` /
 * `poolQuotaExceeded` leave nothing: the caller's transaction rolls back and it removes `written`).
 * Records point at the copies: an environment at the copied scheme (whose processed data is
 * copied too, state `completed`, so the environment loads without processing again; its
 * `venv.json` names the copied scheme), a policy at the copied environment and reward. States
 * are kept as finished; the copies have no job (`job_id` null: the original's jobs, curves and
 * logs stay with the original, and deleting the copy never touches them). Unfinished trainings,
 * parameter searches and deductions are not copied. `written` collects every blob prefix or key
 * written, for the caller to remove when the transaction fails.
 */
export async function copyTrainedModels(
  knex: Knex,
  blobs: BlobStore,
  input: { from: string; to: string; owner: BlobOwner; now: Date; ids: CopiedIds; written: string[] },
): Promise<{ simulators: number; policies: number; bytes: number }> {
  const { from, to, owner, now, ids, written } = input;
  const finished = async (table: 'simulators' | 'policies') => {
    const rows = (await knex(`${table} as t`)
      .leftJoin('jobs as j', 'j.id', 't.job_id')
      .where('t.solution_id', from)
      .whereNotNull('t.artifact_key')
      .orderBy('t.created_at')
      .select('t.*', 'j.state as job_state')) as Row[];
    return rows.filter((r) => FINISHED.includes(String(r.job_state ?? r.state)));
  };
  let bytes = 0;
  const charge = async (n: number) => {
    await chargeStorage(knex, owner, n);
    bytes += n;
  };
  /** Copies every file under `fromPrefix` to `toPrefix`, `rewrite` changing a file's bytes on the way. */
  const copyFolder = async (fromPrefix: string, toPrefix: string, rewrite?: (name: string, data: Buffer) => Buffer) => {
    const files = await artefactFiles(blobs, fromPrefix);
    written.push(toPrefix);
    for (const f of files) {
      const data = await blobs.get(`${fromPrefix}/${f.name}`);
      const { size } = await blobs.put(`${toPrefix}/${f.name}`, rewrite ? rewrite(f.name, data) : data);
      await charge(size);
    }
  };

  // The processed data of the schemes the copied environments were trained on.
  const simulators = (await finished('simulators')).filter((s) => ids.schemes.has(String(s.scheme_id)));
  const processed = new Set(simulators.map((s) => String(s.scheme_id)));
  for (const oldId of processed) {
    const scheme = (await knex('schemes').where({ id: oldId }).first('processed_key', 'rows', 'process_state')) as Row | undefined;
    if (!scheme?.processed_key || scheme.process_state !== 'completed') continue;
    const newSchemeId = ids.schemes.get(oldId)!;
    const key = `${artifactPrefix(owner.userId, 'schemes', newSchemeId)}/processed.json`;
    written.push(key);
    const { size } = await blobs.put(key, await blobs.get(String(scheme.processed_key)));
    await charge(size);
    await knex('schemes').where({ id: newSchemeId }).update({ process_state: 'completed', processed_key: key, rows: scheme.rows ?? null, updated_at: now });
  }

  const simIds = new Map<string, string>();
  for (const s of simulators) {
    const id = newId();
    const schemeId = ids.schemes.get(String(s.scheme_id))!;
    const prefix = artifactPrefix(owner.userId, 'simulators', id);
    await copyFolder(String(s.artifact_key), prefix, (name, data) => {
      if (name !== 'venv.json') return data;
      const doc = JSON.parse(data.toString('utf8')) as Row;
      return Buffer.from(JSON.stringify({ ...doc, schemeId }));
    });
    const { job_state: jobState, ...row } = s;
    await knex('simulators').insert({ ...row, id, solution_id: to, scheme_id: schemeId, artifact_key: prefix, job_id: null, state: String(jobState ?? s.state), creator_id: owner.userId, created_at: now, updated_at: now });
    simIds.set(String(s.id), id);
  }

  const policies = (await finished('policies')).filter((p) => simIds.has(String(p.simulator_id)) && ids.objectives.has(String(p.objective_id)));
  for (const p of policies) {
    const id = newId();
    const prefix = artifactPrefix(owner.userId, 'policies', id);
    await copyFolder(String(p.artifact_key), prefix);
    const { job_state: jobState, ...row } = p;
    await knex('policies').insert({
      ...row,
      id,
      solution_id: to,
      simulator_id: simIds.get(String(p.simulator_id))!,
      objective_id: ids.objectives.get(String(p.objective_id))!,
      artifact_key: prefix,
      job_id: null,
      state: String(jobState ?? p.state),
      creator_id: owner.userId,
      created_at: now,
      updated_at: now,
    });
  }
  return { simulators: simulators.length, policies: policies.length, bytes };
}
