/**
 * Field codecs: between original units and the network space.
 *
 * - continuous: scaled linearly from [min, max] to [-1, 1] (one column);
 * - discrete ordered: the value's index on the grid `linspace(min, max, count)`, scaled to
 *   [-1, 1] (one column; `2 * i / (count - 1) - 1`);
 * - category: one-hot over `values` (one column per value).
 *
 * A node codec applies its field codecs frame by frame (history nodes repeat the fields).
 */
import { toNumber, type GraphField } from '@decisio/domain';
import { LearningError } from '../errors';

/** Codec of one field with its resolved bounds. */
export interface FieldCodec {
  name: string;
  dataType: GraphField['dataType'];
  min: number;
  max: number;
  /** Grid size (discrete). */
  count: number;
  /** Category values. */
  values: number[];
  /** Encoded width: 1, or the number of category values. */
  width: number;
}

/** Codec of a node: raw width `dim`, encoded width `width`. */
export interface NodeCodec {
  name: string;
  fields: FieldCodec[];
  frames: number;
  dim: number;
  width: number;
  /** Offsets of each raw column in the encoded vector. */
  offsets: number[];
  /** Which encoded columns take part in the fitting loss (REVIVE `fit`). */
  fitMask: Uint8Array;
}

/**
 * Resolves a field's codec. Continuous bounds missing from the graph come from `stats`
 * (observed min/max); a constant column gets a span of 1 around its value.
 */
export function fieldCodec(field: GraphField, stats?: { min: number; max: number }): FieldCodec {
  const name = field.name;
  if (field.dataType === 'category') {
    const values = (field.values ?? []).map((v) => toNumber(v) ?? NaN);
    return { name, dataType: 'category', min: Math.min(...values), max: Math.max(...values), count: values.length, values, width: values.length };
  }
  let min = toNumber(field.min) ?? stats?.min ?? -1;
  let max = toNumber(field.max) ?? stats?.max ?? 1;
  if (!(max > min)) {
    min -= 0.5;
    max += 0.5;
  }
  const count = field.dataType === 'discrete' ? Math.max(1, Math.round(toNumber(field.count) ?? 2)) : 0;
  return { name, dataType: field.dataType, min, max, count, values: [], width: 1 };
}

/** Builds the codec of a node from its field codecs. */
export function nodeCodec(name: string, fields: FieldCodec[], frames = 1, fit?: boolean[]): NodeCodec {
  const offsets: number[] = [];
  let w = 0;
  const mask: number[] = [];
  for (let f = 0; f < frames; f++)
    fields.forEach((c, i) => {
      offsets.push(w);
      w += c.width;
      for (let k = 0; k < c.width; k++) mask.push(fit?.[i] === false ? 0 : 1);
    });
  return { name, fields, frames, dim: fields.length * frames, width: w, offsets, fitMask: Uint8Array.from(mask) };
}

/** Index of `v` on a discrete grid (nearest point). */
export function discreteIndex(c: FieldCodec, v: number): number {
  if (c.count <= 1) return 0;
  const i = Math.round(((v - c.min) / (c.max - c.min)) * (c.count - 1));
  return Math.min(c.count - 1, Math.max(0, i));
}

/** Index of `v` among category values, or -1. */
export function categoryIndex(c: FieldCodec, v: number): number {
  for (let i = 0; i < c.values.length; i++) if (Math.abs(c.values[i]! - v) <= 1e-6 * Math.max(1, Math.abs(v))) return i;
  return -1;
}

/**
 * Encodes `rows` raw rows (`[rows, dim]`, original units) into `[rows, width]`.
 * Throws `data.categoryValue` for a value outside a category's values.
 */
export function encodeRows(codec: NodeCodec, raw: ArrayLike<number>, rows: number, out = new Float32Array(rows * codec.width)): Float32Array {
  const { dim, width, fields } = codec;
  const nf = fields.length;
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < dim; j++) {
      const c = fields[j % nf]!;
      const v = raw[r * dim + j]!;
      const o = r * width + codec.offsets[j]!;
      if (c.dataType === 'continuous') out[o] = (2 * (v - c.min)) / (c.max - c.min) - 1;
      else if (c.dataType === 'discrete') out[o] = c.count <= 1 ? 0 : (2 * discreteIndex(c, v)) / (c.count - 1) - 1;
      else {
        const k = categoryIndex(c, v);
        if (k < 0) throw new LearningError('data.categoryValue', { column: c.name, value: v });
        for (let q = 0; q < c.width; q++) out[o + q] = q === k ? 1 : 0;
      }
    }
  }
  return out;
}

/** Decodes `[rows, width]` back to original units `[rows, dim]` (category: arg-max; discrete: nearest grid value). */
export function decodeRows(codec: NodeCodec, enc: ArrayLike<number>, rows: number, out = new Float32Array(rows * codec.dim)): Float32Array {
  const { dim, width, fields } = codec;
  const nf = fields.length;
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < dim; j++) {
      const c = fields[j % nf]!;
      const o = r * width + codec.offsets[j]!;
      const x = enc[o]!;
      if (c.dataType === 'continuous') out[r * dim + j] = ((x + 1) / 2) * (c.max - c.min) + c.min;
      else if (c.dataType === 'discrete') {
        const i = c.count <= 1 ? 0 : Math.min(c.count - 1, Math.max(0, Math.round(((x + 1) / 2) * (c.count - 1))));
        out[r * dim + j] = c.count <= 1 ? c.min : c.min + (i * (c.max - c.min)) / (c.count - 1);
      } else {
        let best = 0;
        for (let q = 1; q < c.width; q++) if (enc[o + q]! > enc[o + best]!) best = q;
        out[r * dim + j] = c.values[best]!;
      }
    }
  }
  return out;
}
