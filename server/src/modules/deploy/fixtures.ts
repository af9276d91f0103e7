/**
 * Fixtures of the deploy tests and the serving bench: a real policy bundle made with
 * `@decisio/learning` (`savePolicy` of an `AgentPolicy`), stored in the blob store, with its
 * project, solution and `policies` rows written straight to the database.
 */
import { Generator } from '@decisio/compute';
import { AgentPolicy, nodeCodec, savePolicy, type FieldCodec } from '@decisio/learning';
import type { DecisioApp } from '../../app';
import { newId } from '../../db/ids';

const cont = (name: string, min: number, max: number): FieldCodec => ({ name, dataType: 'continuous', min, max, count: 0, values: [], width: 1 });
const disc = (name: string, min: number, max: number, count: number): FieldCodec => ({ name, dataType: 'discrete', min, max, count, values: [], width: 1 });
const cat = (name: string, values: number[]): FieldCodec => ({ name, dataType: 'category', min: Math.min(...values), max: Math.max(...values), count: values.length, values, width: values.length });

/**
 * The bundle of a coupon-like policy: input node `state` (`price` 0..100, `season` one of 1-4,
 * `stock` 0..1000), agent node `action` (`discount` 0..0.5 continuous, `level` 0..10 in 11 steps).
 */
export async function samplePolicyFiles(hidden: number[] = [8], seed = 1): Promise<Record<string, Uint8Array>> {
  const codecs = {
    state: nodeCodec('state', [cont('price', 0, 100), cat('season', [1, 2, 3, 4]), cont('stock', 0, 1000)]),
    action: nodeCodec('action', [cont('discount', 0, 0.5), disc('level', 0, 10, 11)]),
  };
  const policy = new AgentPolicy(codecs, [{ name: 'action', inputs: ['state'] }], hidden, new Generator(seed));
  return savePolicy(policy, 'ppo');
}

/** A valid input row of the sample policy. */
export const SAMPLE_ROW = { price: 42.5, season: 3, stock: 120 };

/** Inserts a project (owned by `ownerId`) and a solution; returns their ids. */
export async function insertProject(app: DecisioApp, tenantId: string, ownerId: string): Promise<{ projectId: string; solutionId: string }> {
  const knex = app.db.knex;
  const now = new Date();
  const projectId = newId();
  const solutionId = newId();
  await knex('projects').insert({ id: projectId, tenant_id: tenantId, owner_id: ownerId, name: `p${projectId.slice(0, 8)}`, colour: 'blue', created_at: now, updated_at: now });
  await knex('solutions').insert({
    id: solutionId,
    tenant_id: tenantId,
    project_id: projectId,
    name: 'solution',
    data_type: 'data_driven',
    goal_type: 'policy_search',
    creator_id: ownerId,
    created_at: now,
    updated_at: now,
  });
  return { projectId, solutionId };
}

/** Inserts a `policies` row; with `files`, stores them under its `artifact_key`. Returns the policy id. */
export async function insertPolicy(
  app: DecisioApp,
  ref: { tenantId: string; projectId: string; solutionId: string; creatorId: string },
  options: { name?: string; files?: Record<string, Uint8Array> | null } = {},
): Promise<string> {
  const id = newId();
  const now = new Date();
  const key = options.files ? `t/${ref.tenantId}/policies/${id}` : null;
  if (options.files && key) for (const [name, bytes] of Object.entries(options.files)) await app.blobs.put(`${key}/${name}`, bytes);
  await app.db.knex('policies').insert({
    id,
    tenant_id: ref.tenantId,
    project_id: ref.projectId,
    solution_id: ref.solutionId,
    name: options.name ?? `policy_${id.slice(0, 6)}`,
    algorithm: 'ppo',
    job_id: null,
    state: 'successful',
    config: null,
    simulator_id: newId(),
    objective_id: newId(),
    reward: 1,
    artifact_key: key,
    creator_id: ref.creatorId,
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** Stores `text` as an uploaded file of the user (a `storage_files` row and its blob); returns the file id. */
export async function insertUploadedFile(app: DecisioApp, user: { id: string; tenantId: string }, name: string, text: string): Promise<string> {
  const id = newId();
  const key = `u/${user.id}/f/${id}`;
  const bytes = new TextEncoder().encode(text);
  await app.blobs.put(key, bytes);
  const now = new Date();
  await app.db.knex('storage_files').insert({
    id,
    tenant_id: user.tenantId,
    user_id: user.id,
    kind: 'upload',
    name,
    path: name,
    blob_key: key,
    size: bytes.length,
    content_type: 'text/csv',
    upload_id: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  return id;
}
