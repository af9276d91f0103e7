/**
 * The REVIVE data layout of npz/h5 datasets: one 2-D array `[N, dim]` per decision-graph node,
 * all with the same N, and an optional 1-D integer `index` of cumulative trajectory ends
 * (strictly increasing, positive, the last one equal to N), e.g. `[100, 250, 400]` for three
 * trajectories of 400 rows.
 */
import type { ArrayInfo, ReviveLayout } from './types';

/** Name of the trajectory index array. */
export const REVIVE_INDEX = 'index';

/**
 * Checks the REVIVE layout. `index` holds the values of the `index` array when there is one
 * (read by the caller; it is small: one value per trajectory).
 */
export function checkReviveLayout(
  arrays: readonly Pick<ArrayInfo, 'name' | 'shape' | 'dtype'>[],
  index?: ArrayLike<number | bigint> | null,
): ReviveLayout {
  const problems: string[] = [];
  const nodes: { name: string; dim: number }[] = [];
  const rowsSeen = new Map<number, string[]>();
  for (const a of arrays) {
    if (a.name === REVIVE_INDEX) continue;
    if (a.shape.length !== 2) {
      problems.push(`${a.name}: shape [${a.shape.join(', ')}] is not [N, dim]`);
      continue;
    }
    const [n, dim] = a.shape as [number, number];
    nodes.push({ name: a.name, dim });
    rowsSeen.set(n, [...(rowsSeen.get(n) ?? []), a.name]);
  }
  if (nodes.length === 0) problems.push('no [N, dim] node array');
  let rows: number | null = null;
  if (rowsSeen.size > 1) {
    problems.push(`node arrays disagree on N: ${[...rowsSeen].map(([n, names]) => `${names.join(', ')} have ${n}`).join('; ')}`);
  } else if (rowsSeen.size === 1) {
    rows = [...rowsSeen.keys()][0]!;
  }
  let trajectories: number | null = null;
  const indexInfo = arrays.find((a) => a.name === REVIVE_INDEX);
  if (indexInfo) {
    if (indexInfo.shape.length !== 1) problems.push(`index: shape [${indexInfo.shape.join(', ')}] is not 1-D`);
    else if (!/int/.test(indexInfo.dtype)) problems.push(`index: dtype ${indexInfo.dtype} is not an integer type`);
    else if (index) {
      trajectories = index.length;
      let prev = 0;
      for (let i = 0; i < index.length; i += 1) {
        const v = Number(index[i]);
        if (!(v > prev)) {
          problems.push(`index: value ${v} at ${i} is not greater than ${prev} (cumulative trajectory ends must increase)`);
          break;
        }
        prev = v;
      }
      if (index.length === 0) problems.push('index: empty');
      else if (rows !== null && prev !== rows) problems.push(`index: the last end is ${prev}, N is ${rows}`);
    }
  }
  return { ok: problems.length === 0, rows, nodes, trajectories, problems };
}
