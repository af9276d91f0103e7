/**
 * The call shape of a deployed policy: the input fields a caller sends (named as in the decision
 * graph) and the output fields it gets back, both in original units, and the fast row parser of
 * the decision endpoint (one pass, no allocation per field besides the node buffers).
 */
import { AppError, type Locale, type ModelServiceField } from '@decisio/domain';
import { categoryIndex, type FieldCodec, type NodeCodec, type PolicyRunner } from '@decisio/learning';

/** One field of a node as the service sees it. */
interface FieldSlot {
  /** Name in the call (`field`, or `node.field` when two nodes share a field name). */
  name: string;
  node: string;
  codec: FieldCodec;
  /** Index of the field within a frame. */
  index: number;
  /** Fields per frame of the node. */
  width: number;
  frames: number;
  /** Raw values per row of the node (`width * frames`). */
  dim: number;
  /** Position of the node in `ServingIO.inputNodes` / `outputNodes`. */
  nodeIndex: number;
}

const TOLERANCE = 1e-9;

/** Most single rows run in one coalesced forward pass. */
export const COALESCE_MAX = 256;

interface Pending {
  body: unknown;
  locale: Locale;
  resolve(row: Record<string, number | number[]>): void;
  reject(err: unknown): void;
}

function slotsOf(nodes: string[], codecs: Record<string, NodeCodec>): FieldSlot[] {
  const count = new Map<string, number>();
  for (const n of nodes) for (const f of codecs[n]!.fields) count.set(f.name, (count.get(f.name) ?? 0) + 1);
  const slots: FieldSlot[] = [];
  nodes.forEach((node, nodeIndex) => {
    const c = codecs[node]!;
    c.fields.forEach((f, index) => {
      slots.push({
        name: count.get(f.name)! > 1 ? `${node}.${f.name}` : f.name,
        node,
        codec: f,
        index,
        width: c.fields.length,
        frames: c.frames,
        dim: c.dim,
        nodeIndex,
      });
    });
  });
  return slots;
}

function describe(s: FieldSlot): ModelServiceField {
  const d: ModelServiceField = { name: s.name, node: s.node, dataType: s.codec.dataType, min: s.codec.min, max: s.codec.max, frames: s.frames };
  if (s.codec.dataType === 'category') d.values = [...s.codec.values];
  return d;
}

const MESSAGES: Record<Locale, { missing: string; type: string; frames: string; range: string; category: string; row: string }> = {
  'en-US': {
    missing: 'Missing field',
    type: 'Must be a number',
    frames: 'Must be an array of {n} numbers',
    range: 'Out of range: {min} to {max}',
    category: 'Must be one of {values}',
    row: 'Each row must be an object of fields',
  },
  'zh-CN': {
    missing: '缺少字段',
    type: '必须是数字',
    frames: '必须是 {n} 个数字组成的数组',
    range: '超出范围：{min} 至 {max}',
    category: '必须是以下值之一：{values}',
    row: '每一行必须是字段对象',
  },
};

/** Rounds float32 outputs to the digits float32 holds (3.2, not 3.200000047683716). */
function clean(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(7)) : v;
}

/** Input and output layout of a runner, built once per loaded policy. */
export class ServingIO {
  readonly inputNodes: string[];
  readonly outputNodes: string[];
  private readonly inputs: FieldSlot[];
  private readonly outputs: FieldSlot[];
  private readonly dims: number[];

  constructor(private readonly runner: PolicyRunner) {
    const codecs = runner.policy.codecs;
    this.inputNodes = runner.inputNames;
    this.outputNodes = runner.outputNames;
    this.inputs = slotsOf(this.inputNodes, codecs);
    this.outputs = slotsOf(this.outputNodes, codecs);
    this.dims = this.inputNodes.map((n) => codecs[n]!.dim);
  }

  /** Input fields as shown in the service detail. */
  describeInputs(): ModelServiceField[] {
    return this.inputs.map(describe);
  }

  /** Output fields as shown in the service detail. */
  describeOutputs(): ModelServiceField[] {
    return this.outputs.map(describe);
  }

  /**
   * Parses one row (an object) or a batch (an array of objects) into node buffers.
   * @throws AppError `deployInputInvalid` with `{field: message}` (the first problems, per field; a
   *   batch names the row: `3.price`).
   */
  parse(body: unknown, locale: Locale): { rows: number; batch: boolean; values: Record<string, Float64Array> } {
    const batch = Array.isArray(body);
    const list: unknown[] = batch ? (body as unknown[]) : [body];
    const rows = list.length;
    const buffers = this.buffers(rows);
    let errors: Record<string, string> | null = null;
    for (let r = 0; r < rows; r++) {
      const e = this.parseRow(list[r], r, buffers, locale);
      if (!e) continue;
      errors ??= {};
      for (const [k, v] of Object.entries(e)) if (Object.keys(errors).length < 20) errors[batch ? `${r}.${k}` : k] = v;
      if (Object.keys(errors).length >= 20) break;
    }
    if (errors) throw new AppError('deployInputInvalid', errors);
    return { rows, batch, values: this.valuesOf(buffers, rows) };
  }

  private buffers(rows: number): Float64Array[] {
    return this.dims.map((d) => new Float64Array(rows * d));
  }

  private valuesOf(buffers: Float64Array[], rows: number): Record<string, Float64Array> {
    const values: Record<string, Float64Array> = {};
    this.inputNodes.forEach((n, i) => (values[n] = buffers[i]!.length === rows * this.dims[i]! ? buffers[i]! : buffers[i]!.subarray(0, rows * this.dims[i]!)));
    return values;
  }

  /** Writes row `r`; returns its problems by field, or `null`. */
  private parseRow(row: unknown, r: number, buffers: Float64Array[], locale: Locale): Record<string, string> | null {
    const m = MESSAGES[locale];
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return { _: m.row };
    let errors: Record<string, string> | null = null;
    const obj = row as Record<string, unknown>;
    for (const s of this.inputs) {
      const raw = obj[s.name];
      const buf = buffers[s.nodeIndex]!;
      let problem: string | null = null;
      if (raw === undefined || raw === null) problem = m.missing;
      else if (s.frames === 1) {
        problem = this.check(s, raw, m);
        if (!problem) buf[r * s.dim + s.index] = raw as number;
      } else if (!Array.isArray(raw) || raw.length !== s.frames) problem = m.frames.replace('{n}', String(s.frames));
      else
        for (let f = 0; f < s.frames && !problem; f++) {
          problem = this.check(s, raw[f], m);
          if (!problem) buf[r * s.dim + f * s.width + s.index] = raw[f] as number;
        }
      if (problem) (errors ??= {})[s.name] = problem;
    }
    return errors;
  }

  /** Output row `r` of a run. */
  private rowOf(out: Record<string, Float32Array>, r: number): Record<string, number | number[]> {
    const row: Record<string, number | number[]> = {};
    for (const s of this.outputs) {
      const v = out[s.node]!;
      if (s.frames === 1) row[s.name] = clean(v[r * s.dim + s.index]!);
      else {
        const a: number[] = new Array(s.frames);
        for (let f = 0; f < s.frames; f++) a[f] = clean(v[r * s.dim + f * s.width + s.index]!);
        row[s.name] = a;
      }
    }
    return row;
  }

  /** Decides at once and shapes the reply: an object for one row, an array for a batch. */
  decide(body: unknown, locale: Locale): Record<string, number | number[]> | Record<string, number | number[]>[] {
    const { rows, batch, values } = this.parse(body, locale);
    const out = this.runner.run(values, rows);
    const result: Record<string, number | number[]>[] = new Array(rows);
    for (let r = 0; r < rows; r++) result[r] = this.rowOf(out, r);
    return batch ? result : result[0]!;
  }

  /**
   * Decides rows one by one in a single forward pass: each row gets its decision or its own
   * problems by field (batch decisions from a csv, where one bad row must not stop the rest).
   */
  decideEach(rows: unknown[], locale: Locale): ({ decision: Record<string, number | number[]> } | { errors: Record<string, string> })[] {
    const out: ({ decision: Record<string, number | number[]> } | { errors: Record<string, string> })[] = new Array(rows.length);
    const buffers = this.buffers(rows.length);
    const ok: number[] = [];
    rows.forEach((row, i) => {
      const e = this.parseRow(row, ok.length, buffers, locale);
      if (e) out[i] = { errors: e };
      else ok.push(i);
    });
    if (ok.length > 0) {
      const res = this.runner.run(this.valuesOf(buffers, ok.length), ok.length);
      ok.forEach((i, r) => (out[i] = { decision: this.rowOf(res, r) }));
    }
    return out;
  }

  /** Names of the output fields, in reply order. */
  outputNames(): string[] {
    return this.outputs.map((s) => s.name);
  }

  /**
   * Decides one row, coalesced with the other single rows that arrive in the same turn of the
   * event loop into one forward pass (at most {@link COALESCE_MAX} rows): a batch costs far less
   * per row than single rows, so concurrent callers raise the throughput without waiting on a
   * timer. A row's own input problems reject only that row.
   */
  decideOne(body: unknown, locale: Locale): Promise<Record<string, number | number[]>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ body, locale, resolve, reject });
      if (this.queue.length === 1) setImmediate(this.drain);
    });
  }

  private queue: Pending[] = [];

  private readonly drain = (): void => {
    while (this.queue.length > 0) {
      const items = this.queue.length <= COALESCE_MAX ? this.queue : this.queue.slice(0, COALESCE_MAX);
      this.queue = this.queue.length <= COALESCE_MAX ? [] : this.queue.slice(COALESCE_MAX);
      const buffers = this.buffers(items.length);
      const ok: Pending[] = [];
      for (const it of items) {
        const e = this.parseRow(it.body, ok.length, buffers, it.locale);
        if (e) it.reject(new AppError('deployInputInvalid', e));
        else ok.push(it);
      }
      if (ok.length === 0) continue;
      try {
        const out = this.runner.run(this.valuesOf(buffers, ok.length), ok.length);
        for (let r = 0; r < ok.length; r++) ok[r]!.resolve(this.rowOf(out, r));
      } catch (err) {
        for (const it of ok) it.reject(err);
      }
    }
  };

  private check(s: FieldSlot, v: unknown, m: (typeof MESSAGES)['en-US']): string | null {
    if (typeof v !== 'number' || !Number.isFinite(v)) return m.type;
    const c = s.codec;
    if (c.dataType === 'category') {
      return categoryIndex(c, v) < 0 ? m.category.replace('{values}', c.values.map(clean).join(', ')) : null;
    }
    const span = Math.max(1, Math.abs(c.max - c.min)) * TOLERANCE;
    if (v < c.min - span || v > c.max + span) return m.range.replace('{min}', String(clean(c.min))).replace('{max}', String(clean(c.max)));
    return null;
  }
}
