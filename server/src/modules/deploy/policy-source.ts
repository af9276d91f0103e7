/**
 * Where a deployed service gets its policy. The default reads the `policies` row (table of the
 * modelling module: `id, tenant_id, project_id, solution_id, name, artifact_key, ...`) and the
 * bundle that `savePolicy()` of `@decisio/learning` wrote under `<artifact_key>/` in the blob
 * store (`policy.weights` carries the manifest in its metadata).
 */
import { AppError } from '@decisio/domain';
import { PolicyRunner, loadPolicy, type PolicyManifest } from '@decisio/learning';
import type { Database } from '../../db/database';
import type { BlobStore } from '../storage/blob-store';

/** A policy ready to decide. */
export interface LoadedPolicy {
  manifest: PolicyManifest;
  runner: PolicyRunner;
}

/** Loads policies for the serving runtime. */
export interface PolicySource {
  /**
   * @throws AppError `policyNotFound` when the row is missing, deleted or of another tenant;
   *   Error when the artefact is missing or unreadable (the service goes to `failure`).
   */
  load(tenantId: string, policyId: string): Promise<LoadedPolicy>;
}

/** The `policies` row fields deploy reads. */
export interface PolicyRow {
  id: string;
  tenantId: string;
  projectId: string;
  solutionId: string;
  name: string;
  artifactKey: string | null;
}

/** Reads a live policy row of a tenant, or `undefined`. */
export async function findPolicy(db: Database, tenantId: string, policyId: string): Promise<PolicyRow | undefined> {
  const row = (await db.executor()('policies').where({ id: policyId, tenant_id: tenantId }).first()) as Record<string, unknown> | undefined;
  if (!row || row.deleted_at) return undefined;
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    projectId: String(row.project_id),
    solutionId: String(row.solution_id),
    name: String(row.name),
    artifactKey: (row.artifact_key as string | null) ?? null,
  };
}

/** The default source: the `policies` row plus its files in the blob store. */
export class StoredPolicySource implements PolicySource {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
  ) {}

  async load(tenantId: string, policyId: string): Promise<LoadedPolicy> {
    const row = await findPolicy(this.db, tenantId, policyId);
    if (!row) throw new AppError('policyNotFound');
    if (!row.artifactKey) throw new Error('the policy has no trained artefact yet');
    const key = `${row.artifactKey.replace(/\/+$/, '')}/policy.weights`;
    const stat = await this.blobs.stat(key);
    if (!stat) throw new Error(`the policy artefact ${key} is missing`);
    const { policy, manifest } = loadPolicy(new Uint8Array(await this.blobs.get(key)));
    return { manifest, runner: new PolicyRunner(policy, manifest.squash, { frozen: true }) };
  }
}
