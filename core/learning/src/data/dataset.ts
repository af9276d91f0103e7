/**
 * The typed trajectory data set the trainers batch from.
 *
 * {@link buildDataset} checks raw trajectories against a decision graph and prepares them:
 * history nodes (`ts_X`) built from their base frames (first frame repeated, as REVIVE does),
 * missing `next_X` built by shifting within each trajectory (last step dropped, or kept with
 * itself as next value and `done = 1`), missing values dropped or filled (and reported), and
 * every node encoded to the network space (see `codec.ts`). Arrays are flat `Float32Array`s
 * per node, row-major, so a batch is a gather of rows.
 */
import type { DecisionGraph } from '@decisio/domain';
import { LearningError } from '../errors';
import { STEP_NODE, assertReviveSupported, withStepNode } from '../graph/compat';
import { analyseGraph, type GraphStructure, type NodeSpec } from '../graph/structure';
import { encodeRows, fieldCodec, nodeCodec, type NodeCodec } from './codec';
import type { Matrix, RawTrajectories } from './raw';

/** Options of {@link buildDataset}. */
export interface BuildDatasetOptions {
  /** When `next_X` is built by shifting: drop each trajectory's last step (default, as REVIVE) or keep it. */
  lastStep?: 'drop' | 'keep';
  /** Rows with missing values: drop them (default) or fill them (previous value in the trajectory, else next, else column mean). */
  nan?: 'drop' | 'fill';
}

/** What {@link buildDataset} did to the data, for the training log. */
export interface DataReport {
  rows: number;
  trajectories: number;
  /** `next_X` nodes built by shifting. */
  builtNext: string[];
  /** History nodes built from frames. */
  builtHistory: string[];
  /** Steps removed by the shift (`lastStep: 'drop'`). */
  shiftDroppedRows: number;
  /** Rows removed for missing values. */
  nanDroppedRows: number;
  /** Trajectories left empty and removed. */
  droppedTrajectories: number;
  /** Missing values per column and what was done. */
  nan: Array<{ node: string; column: string; count: number; action: 'dropped' | 'filled' }>;
  /** Function nodes absent from the data (compute them with their function before training). */
  missingFunctionNodes: string[];
  /** Data keys the graph does not use. */
  unusedKeys: string[];
}

/** Trajectory data prepared for a graph; see the module comment. */
export class Dataset {
  constructor(
    readonly structure: GraphStructure,
    /** Node names present, in graph order. */
    readonly nodes: string[],
    /** Start row of each trajectory. */
    readonly starts: Int32Array,
    /** End row (exclusive) of each trajectory. */
    readonly ends: Int32Array,
    /** Original units, `[rows, dim]` per node. */
    readonly raw: Record<string, Float32Array>,
    /** Network space, `[rows, codec.width]` per node. */
    readonly scaled: Record<string, Float32Array>,
    /** Codecs of the nodes present, and of function nodes absent from the data (from the graph's bounds). */
    readonly codecs: Record<string, NodeCodec>,
    /** 1 at the last step of each trajectory. */
    readonly done: Uint8Array,
    readonly report: DataReport,
  ) {}

  /** Number of rows (steps). */
  get rows(): number {
    return this.done.length;
  }

  /** Number of trajectories. */
  get trajectoryCount(): number {
    return this.starts.length;
  }

  /** REVIVE-style `index`: cumulative end offsets. */
  get index(): Int32Array {
    return this.ends;
  }

  /** Gathers rows of a node into a new `[rows.length, width]` (or `[.., dim]` for `raw`) array. */
  gather(node: string, rows: ArrayLike<number>, space: 'scaled' | 'raw' = 'scaled', out?: Float32Array): Float32Array {
    const src = (space === 'scaled' ? this.scaled : this.raw)[node];
    const codec = this.codecs[node];
    if (!src || !codec) throw new LearningError('data.missingNode', { node });
    const w = space === 'scaled' ? codec.width : codec.dim;
    const dst = out ?? new Float32Array(rows.length * w);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      dst.set(src.subarray(r * w, r * w + w), i * w);
    }
    return dst;
  }

  /** A new data set holding only the given trajectories (in that order). */
  subset(trajectories: readonly number[]): Dataset {
    return this.slice(trajectories.map((t) => [this.starts[t]!, this.ends[t]!] as const));
  }

  /** A new data set from row ranges `[start, end)`, each becoming one trajectory (copied block by block). */
  slice(ranges: ReadonlyArray<readonly [number, number]>): Dataset {
    const starts = new Int32Array(ranges.length);
    const ends = new Int32Array(ranges.length);
    let total = 0;
    ranges.forEach(([a, b], k) => {
      starts[k] = total;
      total += Math.max(0, b - a);
      ends[k] = total;
    });
    const copy = (src: Float32Array, w: number): Float32Array => {
      const out = new Float32Array(total * w);
      ranges.forEach(([a, b], k) => out.set(src.subarray(a * w, b * w), starts[k]! * w));
      return out;
    };
    const raw: Record<string, Float32Array> = {};
    const scaled: Record<string, Float32Array> = {};
    for (const n of this.nodes) {
      const c = this.codecs[n]!;
      raw[n] = copy(this.raw[n]!, c.dim);
      scaled[n] = copy(this.scaled[n]!, c.width);
    }
    const done = new Uint8Array(total);
    for (let k = 0; k < ends.length; k++) if (ends[k]! > starts[k]!) done[ends[k]! - 1] = 1;
    const report = { ...this.report, rows: total, trajectories: starts.length };
    return new Dataset(this.structure, this.nodes, starts, ends, raw, scaled, this.codecs, done, report);
  }
}

/**
 * Checks raw trajectories against a graph and prepares the data set. Throws
 * {@link LearningError}: `revive.unsupported` (a REVIVE feature the engine does not run,
 * `graph/compat.ts`), `data.missingNode`, `data.notMatrix`, `data.wrongDims`,
 * `data.rowMismatch`, `data.indexNotMonotonic`, `data.indexInvalid`, `data.nanOnly`,
 * `data.categoryValue`, `data.trajectoryTooShort`, `data.noRowsLeft`, `data.empty`.
 */
export function buildDataset(original: DecisionGraph, rawIn: RawTrajectories, options: BuildDatasetOptions = {}): Dataset {
  assertReviveSupported(original);
  const graph = withStepNode(original);
  const s = analyseGraph(graph);
  const lastStep = options.lastStep ?? 'drop';
  const nanMode = options.nan ?? 'drop';
  const report: DataReport = {
    rows: 0,
    trajectories: 0,
    builtNext: [],
    builtHistory: [],
    shiftDroppedRows: 0,
    nanDroppedRows: 0,
    droppedTrajectories: 0,
    nan: [],
    missingFunctionNodes: [],
    unusedKeys: [],
  };
  const first = Object.values(rawIn.arrays)[0];
  if (!first || first.rows === 0) throw new LearningError('data.empty');
  const N = rawIn.index && rawIn.index.length > 0 ? rawIn.index[rawIn.index.length - 1]! : first.rows;
  const ends = checkIndex(rawIn.index, N);
  const starts = ends.map((_, i) => (i === 0 ? 0 : ends[i - 1]!));
  // REVIVE's step node (`nodes.<X>.step_input`): the step index within each trajectory
  const raw: RawTrajectories = s.nodes.has(STEP_NODE) && !rawIn.arrays[STEP_NODE] ? { ...rawIn, arrays: { ...rawIn.arrays, [STEP_NODE]: stepIndex(starts, ends, N) } } : rawIn;

  // resolve every node's matrix
  const mats = new Map<string, Matrix>();
  const fetch = (key: string, expectCols: number, node: string): Matrix => {
    const m = raw.arrays[key];
    if (!m) {
      const bad = raw.badShapes?.[key];
      if (bad) throw new LearningError('data.notMatrix', { node: key, shape: bad.join(', ') });
      throw new LearningError('data.missingNode', { node: key });
    }
    if (m.cols !== expectCols) throw new LearningError('data.wrongDims', { node, got: m.cols, expected: expectCols });
    if (m.rows !== N) throw new LearningError('data.rowMismatch', { node: key, got: m.rows, expected: N });
    return m;
  };
  let shifted = false;
  for (const spec of s.nodes.values()) {
    if (spec.historyOf && !raw.arrays[spec.name]) {
      const base = fetch(spec.historyOf, spec.fields.length, spec.name);
      mats.set(spec.name, historyFrames(base, starts, ends, spec.frames));
      report.builtHistory.push(spec.name);
      continue;
    }
    if (spec.stateOf && !raw.arrays[spec.name]) {
      const cur = mats.get(spec.stateOf);
      if (!cur) throw new LearningError('data.missingNode', { node: spec.stateOf });
      mats.set(spec.name, shiftNext(cur, starts, ends));
      report.builtNext.push(spec.name);
      shifted = true;
      continue;
    }
    if (spec.source === 'function' && !raw.arrays[spec.name]) {
      report.missingFunctionNodes.push(spec.name);
      continue;
    }
    if (spec.role === 'tunable' && raw.arrays[spec.name] && raw.arrays[spec.name]!.rows !== N) {
      mats.set(spec.name, expandTunable(raw.arrays[spec.name]!, spec.dim, spec.name, starts, ends, N));
      continue;
    }
    mats.set(spec.name, fetch(spec.name, spec.dim, spec.name));
  }
  const used = new Set([...mats.keys(), ...[...s.nodes.values()].map((n) => n.historyOf).filter((x): x is string => !!x)]);
  report.unusedKeys = Object.keys(raw.arrays).filter((k) => !used.has(k) && k !== 'done');

  // columns with no value at all
  for (const [name, m] of mats) {
    const spec = s.nodes.get(name)!;
    for (let j = 0; j < m.cols; j++) {
      let nan = 0;
      for (let r = 0; r < m.rows; r++) if (Number.isNaN(m.data[r * m.cols + j]!)) nan++;
      if (nan === m.rows) throw new LearningError('data.nanOnly', { node: name, column: spec.fields[j % spec.fields.length]?.name ?? String(j) });
      if (nan > 0 && !report.builtNext.includes(name) && !report.builtHistory.includes(name))
        report.nan.push({ node: name, column: spec.fields[j % spec.fields.length]?.name ?? String(j), count: nan, action: nanMode === 'drop' ? 'dropped' : 'filled' });
    }
  }

  // rows to keep
  const keep = new Uint8Array(N).fill(1);
  if (shifted && lastStep === 'drop') {
    for (const e of ends) keep[e - 1] = 0;
    report.shiftDroppedRows = ends.length;
  }
  if (nanMode === 'fill') {
    for (const [name, m] of mats) if (!report.builtNext.includes(name)) fillNaN(m, starts, ends);
    for (const name of report.builtNext) {
      const spec = s.nodes.get(name)!;
      mats.set(name, shiftNext(mats.get(spec.stateOf!)!, starts, ends));
    }
  } else {
    for (const m of mats.values())
      for (let r = 0; r < N; r++) {
        if (!keep[r]) continue;
        for (let j = 0; j < m.cols; j++)
          if (Number.isNaN(m.data[r * m.cols + j]!)) {
            keep[r] = 0;
            report.nanDroppedRows++;
            break;
          }
      }
  }
  // new trajectory bounds
  const newStarts: number[] = [];
  const newEnds: number[] = [];
  const rowMap: number[] = [];
  for (let t = 0; t < ends.length; t++) {
    const before = rowMap.length;
    for (let r = starts[t]!; r < ends[t]!; r++) if (keep[r]) rowMap.push(r);
    if (rowMap.length > before) {
      newStarts.push(before);
      newEnds.push(rowMap.length);
    } else report.droppedTrajectories++;
  }
  if (rowMap.length === 0) {
    if (shifted && lastStep === 'drop' && ends.every((e, i) => e - starts[i]! < 2))
      throw new LearningError('data.trajectoryTooShort', { node: report.builtNext[0] ?? '' });
    throw new LearningError('data.noRowsLeft');
  }
  const rows = rowMap.length;

  // codecs (continuous bounds from the data when the graph has none) and arrays
  const codecs: Record<string, NodeCodec> = {};
  const rawOut: Record<string, Float32Array> = {};
  const scaled: Record<string, Float32Array> = {};
  const nodes = [...s.nodes.keys()].filter((n) => mats.has(n));
  for (const name of nodes) {
    const m = mats.get(name)!;
    const spec = s.nodes.get(name)!;
    const r32 = new Float32Array(rows * m.cols);
    for (let i = 0; i < rows; i++) {
      const src = rowMap[i]! * m.cols;
      for (let j = 0; j < m.cols; j++) r32[i * m.cols + j] = m.data[src + j]!;
    }
    rawOut[name] = r32;
    codecs[name] = codecFromRows(name, spec, r32, rows);
  }
  // function nodes absent from the data: codecs from the graph's field settings alone
  for (const name of report.missingFunctionNodes) {
    const spec = s.nodes.get(name)!;
    codecs[name] = nodeCodec(name, spec.fields.map((f) => fieldCodec(f)), spec.frames, spec.fields.map((f) => f.fit !== false));
  }
  // a next_X shares its state's codec (same scale on both sides of a transition)
  for (const [x, nx] of s.transitions) if (codecs[x] && codecs[nx]) codecs[nx] = { ...codecs[x]!, name: nx };
  for (const name of nodes) scaled[name] = encodeRows(codecs[name]!, rawOut[name]!, rows);

  const st = Int32Array.from(newStarts);
  const en = Int32Array.from(newEnds);
  const done = new Uint8Array(rows);
  for (const e of en) done[e - 1] = 1;
  report.rows = rows;
  report.trajectories = st.length;
  return new Dataset(s, nodes, st, en, rawOut, scaled, codecs, done, report);
}

function checkIndex(index: number[] | undefined, N: number): number[] {
  if (!index || index.length === 0) return Array.from({ length: N }, (_, i) => i + 1);
  let prev = 0;
  index.forEach((v, i) => {
    if (!Number.isInteger(v)) throw new LearningError('data.indexInvalid', { detail: `value ${v} at ${i} is not an integer` });
    if (v <= prev) throw new LearningError('data.indexNotMonotonic', { position: i });
    prev = v;
  });
  return index;
}

/** `[N, 1]`: each row's step index within its trajectory. */
function stepIndex(starts: number[], ends: number[], N: number): Matrix {
  const data = new Float64Array(N);
  starts.forEach((st, t) => {
    for (let r = st; r < ends[t]!; r++) data[r] = r - st;
  });
  return { rows: N, cols: 1, data };
}

function shiftNext(cur: Matrix, starts: number[], ends: number[]): Matrix {
  const out: Matrix = { rows: cur.rows, cols: cur.cols, data: new Float64Array(cur.data.length) };
  const c = cur.cols;
  for (let t = 0; t < ends.length; t++) {
    const e = ends[t]!;
    for (let r = starts[t]!; r < e; r++) {
      const src = r + 1 < e ? r + 1 : r; // last step: itself (dropped unless lastStep 'keep')
      out.data.set(cur.data.subarray(src * c, src * c + c), r * c);
    }
  }
  return out;
}

function historyFrames(base: Matrix, starts: number[], ends: number[], k: number): Matrix {
  const c = base.cols;
  const out: Matrix = { rows: base.rows, cols: c * k, data: new Float64Array(base.rows * c * k) };
  for (let t = 0; t < ends.length; t++) {
    const s = starts[t]!;
    for (let r = s; r < ends[t]!; r++)
      for (let f = 0; f < k; f++) {
        const src = Math.max(s, r - (k - 1) + f);
        out.data.set(base.data.subarray(src * c, src * c + c), r * c * k + f * c);
      }
  }
  return out;
}

function fillNaN(m: Matrix, starts: number[], ends: number[]): void {
  const c = m.cols;
  for (let j = 0; j < c; j++) {
    let sum = 0;
    let n = 0;
    for (let r = 0; r < m.rows; r++) {
      const v = m.data[r * c + j]!;
      if (!Number.isNaN(v)) {
        sum += v;
        n++;
      }
    }
    const mean = n > 0 ? sum / n : 0;
    for (let t = 0; t < ends.length; t++) {
      let last = NaN;
      for (let r = starts[t]!; r < ends[t]!; r++) {
        const v = m.data[r * c + j]!;
        if (Number.isNaN(v)) {
          if (!Number.isNaN(last)) m.data[r * c + j] = last;
        } else last = v;
      }
      let next = NaN;
      for (let r = ends[t]! - 1; r >= starts[t]!; r--) {
        const v = m.data[r * c + j]!;
        if (Number.isNaN(v)) m.data[r * c + j] = Number.isNaN(next) ? mean : next;
        else next = v;
      }
    }
  }
}

/** Tunable parameters may be given once (`[1, dim]`) or once per trajectory (`[T, dim]`), as REVIVE allows. */
function expandTunable(m: Matrix, dim: number, node: string, starts: number[], ends: number[], N: number): Matrix {
  if (m.cols !== dim) throw new LearningError('data.wrongDims', { node, got: m.cols, expected: dim });
  if (m.rows !== 1 && m.rows !== ends.length) throw new LearningError('data.rowMismatch', { node, got: m.rows, expected: N });
  const out: Matrix = { rows: N, cols: dim, data: new Float64Array(N * dim) };
  for (let t = 0; t < ends.length; t++) {
    const src = m.rows === 1 ? 0 : t;
    for (let r = starts[t]!; r < ends[t]!; r++) out.data.set(m.data.subarray(src * dim, src * dim + dim), r * dim);
  }
  return out;
}

/**
 * A node's codec with the continuous bounds taken from its raw rows (`rows` x `frames` x fields,
 * row-major) where the graph gives none; also used when rows are added to a dataset.
 */
export function codecFromRows(name: string, spec: NodeSpec, raw: Float32Array, rows: number): NodeCodec {
  const nf = spec.fields.length;
  const dim = nf * spec.frames;
  const fieldCodecs = spec.fields.map((f, j) => {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < rows; i++)
      for (let fr = 0; fr < spec.frames; fr++) {
        const v = raw[i * dim + fr * nf + j]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    return fieldCodec(f, { min, max });
  });
  return nodeCodec(name, fieldCodecs, spec.frames, spec.fields.map((f) => f.fit !== false));
}
