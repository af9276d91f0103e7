/**
 * Initial datasets and long rollouts of deductions and parameter searches (spec workflow §3:
 * a deduction's "initial dataset", a tuning's "initial search dataset"; §5: step size up to
 * `MODELLING_LIMITS.deductionStepMax`).
 *
 * - {@link initialDataset}: a dataset of the project read as the scheme's data is (graph
 *   columns, `decision_`/`outcome_` fallbacks and trajectories as in `update-data.ts`), scaled
 *   with the environment's own codecs, so the environment sees the chosen rows exactly as it
 *   would see its training data. Its trajectories give the rollouts' initial states.
 * - {@link HeldDataset}: the first rows of up to `count` trajectories, each extended to
 *   `horizon` steps. A rollout carries the states it predicts from step to step; what it still
 *   reads from the data after the trajectory's last row (inputs that are not states, such as
 *   outer factors) stays at that last row's values. So a deduction rolls every step asked
 *   instead of stopping at the shortest trajectory of the data.
 */
import type { DecisionGraph } from '@decisio/domain';
import { Dataset, encodeRows } from '@decisio/learning';
import type { Knex } from 'knex';
import type { BlobStore } from '../../storage/blob-store';
import { loadTableColumns, schemeData } from './data';
import { mapUpdateTable, updateDataset } from './update-data';

/** The rows of `ds` (same graph) scaled with `base`'s codecs: what an environment trained on `base` reads. */
export function withCodecsOf(base: Dataset, ds: Dataset): Dataset {
  const lacking = base.nodes.filter((n) => !ds.nodes.includes(n));
  if (lacking.length > 0) throw new Error(`The initial dataset does not fit the environment's data: missing ${lacking.join(', ')}`);
  const raw: Record<string, Float32Array> = {};
  const scaled: Record<string, Float32Array> = {};
  for (const name of base.nodes) {
    raw[name] = ds.raw[name]!;
    scaled[name] = encodeRows(base.codecs[name]!, ds.raw[name]!, ds.rows);
  }
  return new Dataset(base.structure, base.nodes, ds.starts, ds.ends, raw, scaled, base.codecs, ds.done, ds.report);
}

/**
 * The chosen initial dataset `datasetId` (a dataset of `tenantId`) as data of the environment
 * trained on `base` (the scheme `schemeId`'s data, maybe with update data). Throws with a
 * readable message when no row fits the graph.
 */
export async function initialDataset(
  knex: Knex,
  blobs: BlobStore,
  tenantId: string,
  schemeId: string,
  graph: DecisionGraph,
  base: Dataset,
  datasetId: string,
  log: (line: string, level?: 'info' | 'warn') => Promise<unknown> = async () => undefined,
): Promise<Dataset> {
  const scheme = await schemeData(knex, blobs, schemeId);
  const mapped = mapUpdateTable(graph, await loadTableColumns(knex, blobs, tenantId, datasetId), scheme.correlation, scheme.columns);
  if (mapped.missing.length > 0) await log(`initial dataset ${datasetId} has no column for ${mapped.missing.join(', ')}`, 'warn');
  const ds = updateDataset(graph, mapped);
  if (!ds || ds.rows === 0) throw new Error(`The initial dataset has no row that fits the decision graph${mapped.missing.length ? ` (missing ${mapped.missing.join(', ')})` : ''}`);
  await log(`initial dataset ${datasetId}: ${ds.rows} rows in ${ds.trajectoryCount} trajectories (${mapped.rows - ds.rows} dropped)`);
  return withCodecsOf(base, ds);
}

/** See the module comment. Virtual trajectory `i` is rows `[i * horizon, (i + 1) * horizon)`. */
export class HeldDataset extends Dataset {
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  constructor(
    readonly base: Dataset,
    readonly horizon: number,
    count: number,
  ) {
    const n = Math.max(1, Math.min(count, base.trajectoryCount));
    const starts = Int32Array.from({ length: n }, (_, i) => i * horizon);
    const ends = Int32Array.from({ length: n }, (_, i) => (i + 1) * horizon);
    const done = new Uint8Array(n * horizon);
    for (const e of ends) done[e - 1] = 1;
    super(base.structure, base.nodes, starts, ends, base.raw, base.scaled, base.codecs, done, base.report);
    // Trajectories spread evenly over the data.
    const picks = Int32Array.from({ length: n }, (_, i) => Math.floor((i * base.trajectoryCount) / n));
    this.first = Int32Array.from(picks, (t) => base.starts[t]!);
    this.last = Int32Array.from(picks, (t) => base.ends[t]! - 1);
  }

  /** The data row behind virtual row `v`: its trajectory's row at that step, or the trajectory's last row after its end. */
  realRow(v: number): number {
    const i = Math.floor(v / this.horizon);
    return Math.min(this.first[i]! + (v - i * this.horizon), this.last[i]!);
  }

  /** Whether virtual row `v` is a row of the data (not held after the trajectory's end). */
  isData(v: number): boolean {
    const i = Math.floor(v / this.horizon);
    return this.first[i]! + (v - i * this.horizon) <= this.last[i]!;
  }

  override gather(node: string, rows: ArrayLike<number>, space: 'scaled' | 'raw' = 'scaled', out?: Float32Array): Float32Array {
    return super.gather(node, Int32Array.from(Array.from(rows, (v) => this.realRow(v))), space, out);
  }
}
