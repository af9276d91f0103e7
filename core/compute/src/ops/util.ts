/** Shape helpers shared by the op families. */
import { Tensor } from '../tensor.ts';
import { empty } from '../tensor.ts';

/**
 * Numpy broadcasting of two shapes.
 * @throws Error when a pair of dimensions is neither equal nor 1.
 */
export function broadcastShapes(a: readonly number[], b: readonly number[], op = 'broadcast'): number[] {
  const r = Math.max(a.length, b.length);
  const out = new Array<number>(r);
  for (let i = 0; i < r; i++) {
    const da = a[a.length - r + i] ?? 1;
    const db = b[b.length - r + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) {
      throw new Error(`compute: ${op}: shapes [${a.join(',')}] and [${b.join(',')}] do not broadcast`);
    }
    out[i] = da === 1 ? db : da;
  }
  return out;
}

/** Left-pads a shape with 1s to rank `r`. */
export function padShape(s: readonly number[], r: number): number[] {
  return [...new Array<number>(r - s.length).fill(1), ...s];
}

/**
 * Normalises axes (negative counts from the end) into a sorted unique list.
 * @throws Error on an out-of-range axis.
 */
export function normAxes(axes: number | readonly number[] | undefined, rank: number): number[] {
  if (axes === undefined) return [...Array(rank).keys()];
  const list = typeof axes === 'number' ? [axes] : axes;
  const out = new Set<number>();
  for (const a of list) {
    const x = a < 0 ? a + rank : a;
    if (x < 0 || x >= rank) throw new Error(`compute: axis ${a} out of range for rank ${rank}`);
    out.add(x);
  }
  return [...out].sort((p, q) => p - q);
}

/** Normalises one axis. @throws Error when out of range. */
export function normAxis(axis: number, rank: number): number {
  const x = axis < 0 ? axis + rank : axis;
  if (x < 0 || x >= rank) throw new Error(`compute: axis ${axis} out of range for rank ${rank}`);
  return x;
}

/**
 * Sums a broadcast gradient back to `shape` (the input's shape). Returns `g` itself when no
 * reduction is needed. No autograd (used inside backward functions).
 */
export function unbroadcast(g: Tensor, shape: readonly number[]): Tensor {
  if (g.shape.length === shape.length && g.shape.every((d, i) => d === shape[i])) return g;
  const r = g.shape.length;
  const ps = padShape(shape, r);
  const axes: number[] = [];
  for (let i = 0; i < r; i++) if (ps[i] === 1 && g.shape[i] !== 1) axes.push(i);
  if (axes.length === 0) return g.view(shape);
  const kept = g.shape.filter((_, i) => !axes.includes(i));
  const out = empty(kept, g.backend);
  g.backend.dispatch({ kind: 'reduce', op: 'sum', shape: [...g.shape], axes }, [g.buffer], [out.buffer]);
  return out.view(shape);
}

/** Same shapes? */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
