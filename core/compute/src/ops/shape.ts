/**
 * Shape and indexing ops: reshape, permute/transpose, broadcastTo, slice, concat, stack,
 * gather (index-select) and takeAlongAxis. Copies are materialised with the `copy` kernel.
 */
import { applyOp, defineOp } from '../autograd.ts';
import { contiguousStrides, shapeSize } from '../backends/backend.ts';
import { Tensor, empty, isGradEnabled } from '../tensor.ts';
import { normAxis, padShape, unbroadcast } from './util.ts';

/** reshape: shares storage (no copy); gradient is reshaped back. */
export const reshapeDef = defineOp<{ shape: number[] }>({
  name: 'reshape',
  shape: (i, p) => p.shape,
  forward: () => {},
  backward: (g, i) => [g.view(i[0]!.shape)],
});

/**
 * Reshape (one dimension may be -1). Shares storage with `x`.
 * @throws Error when sizes do not match.
 */
export function reshape(x: Tensor, shape: readonly number[]): Tensor {
  const s = [...shape];
  const neg = s.indexOf(-1);
  if (neg >= 0) {
    const rest = shapeSize(s.filter((d) => d !== -1));
    s[neg] = rest === 0 ? 0 : x.size / rest;
  }
  if (shapeSize(s) !== x.size) throw new Error(`compute: reshape [${x.shape}] -> [${shape}] changes the size`);
  // A view: no kernel, but still an op for autograd.
  const out = x.view(s);
  if (x.requiresGrad && isGradEnabled()) {
    out.requiresGrad = true;
    out.gradNode = { name: 'reshape', inputs: [x], backward: (g) => reshapeDef.backward!(g, [x], out, { shape: s }) };
  }
  return out;
}


/** Adds a dimension of size 1 at `axis`. */
export function unsqueeze(x: Tensor, axis: number): Tensor {
  const a = axis < 0 ? axis + x.rank + 1 : axis;
  const s = [...x.shape];
  s.splice(a, 0, 1);
  return reshape(x, s);
}

/** Removes dimensions of size 1 (all, or the given axis). */
export function squeeze(x: Tensor, axis?: number): Tensor {
  if (axis === undefined) return reshape(x, x.shape.filter((d) => d !== 1));
  const a = normAxis(axis, x.rank);
  if (x.shape[a] !== 1) throw new Error(`compute: squeeze axis ${axis} has size ${x.shape[a]}`);
  const s = [...x.shape];
  s.splice(a, 1);
  return reshape(x, s);
}

/** Flattens to 1-D. */
export function flatten(x: Tensor): Tensor {
  return reshape(x, [x.size]);
}

function permuteForward(x: Tensor, out: Tensor, perm: readonly number[]): void {
  const xs = contiguousStrides(x.shape);
  x.backend.dispatch(
    { kind: 'copy', shape: [...out.shape], srcStrides: perm.map((p) => xs[p]!), srcOffset: 0, dstStrides: contiguousStrides(out.shape), dstOffset: 0, accumulate: false },
    [x.buffer],
    [out.buffer],
  );
}

/** permute: out.shape[i] = x.shape[perm[i]]. */
export const permuteDef = defineOp<{ perm: number[] }>({
  name: 'permute',
  shape: (i, p) => {
    const x = i[0]!;
    if (p.perm.length !== x.rank || new Set(p.perm).size !== x.rank) throw new Error(`compute: permute: bad permutation [${p.perm}] for rank ${x.rank}`);
    return p.perm.map((a) => x.shape[a]!);
  },
  forward: (i, out, p) => permuteForward(i[0]!, out, p.perm),
  backward: (g, _i, _o, p) => {
    const inv = new Array<number>(p.perm.length);
    p.perm.forEach((a, k) => (inv[a] = k));
    const r = empty(inv.map((a) => g.shape[a]!), g.backend);
    permuteForward(g, r, inv);
    return [r];
  },
});

/** Reorders axes. */
export function permute(x: Tensor, perm: readonly number[]): Tensor {
  return applyOp(permuteDef, [x], { perm: perm.map((a) => normAxis(a, x.rank)) });
}

/** Swaps two axes (default: the last two). */
export function transpose(x: Tensor, a = -2, b = -1): Tensor {
  const perm = [...Array(x.rank).keys()];
  const aa = normAxis(a, x.rank);
  const bb = normAxis(b, x.rank);
  perm[aa] = bb;
  perm[bb] = aa;
  return permute(x, perm);
}

/** broadcastTo: materialised expansion; gradient sums back. */
export const broadcastToDef = defineOp<{ shape: number[] }>({
  name: 'broadcast-to',
  shape: (i, p) => {
    const x = i[0]!;
    const ps = padShape(x.shape, p.shape.length);
    ps.forEach((d, k) => {
      if (d !== 1 && d !== p.shape[k]) throw new Error(`compute: cannot broadcast [${x.shape}] to [${p.shape}]`);
    });
    return p.shape;
  },
  forward: (i, out) => {
    const x = i[0]!;
    const ps = padShape(x.shape, out.rank);
    const xs = contiguousStrides(ps);
    x.backend.dispatch(
      { kind: 'copy', shape: [...out.shape], srcStrides: ps.map((d, k) => (d === 1 ? 0 : xs[k]!)), srcOffset: 0, dstStrides: contiguousStrides(out.shape), dstOffset: 0, accumulate: false },
      [x.buffer],
      [out.buffer],
    );
  },
  backward: (g, i) => [unbroadcast(g, i[0]!.shape)],
});

/** Expands size-1 (or missing leading) dimensions to `shape`. */
export function broadcastTo(x: Tensor, shape: readonly number[]): Tensor {
  return applyOp(broadcastToDef, [x], { shape: [...shape] });
}

interface SliceParams {
  begin: number[];
  size: number[];
}

function sliceCopy(src: Tensor, dst: Tensor, begin: readonly number[], intoDst: boolean, accumulate: boolean): void {
  // intoDst=false: dst = src[begin : begin+dst.shape]; intoDst=true: dst[begin : begin+src.shape] (+)= src
  const small = intoDst ? src : dst;
  const big = intoDst ? dst : src;
  const bs = contiguousStrides(big.shape);
  let off = 0;
  begin.forEach((b, k) => (off += b * bs[k]!));
  const ss = contiguousStrides(small.shape);
  if (small.size === 0) return;
  src.backend.dispatch(
    intoDst
      ? { kind: 'copy', shape: [...small.shape], srcStrides: ss, srcOffset: 0, dstStrides: bs, dstOffset: off, accumulate }
      : { kind: 'copy', shape: [...small.shape], srcStrides: bs, srcOffset: off, dstStrides: ss, dstOffset: 0, accumulate },
    [src.buffer],
    [dst.buffer],
  );
}

/** slice op definition (begin + size per axis). */
export const sliceDef = defineOp<SliceParams>({
  name: 'slice',
  shape: (i, p) => {
    const x = i[0]!;
    p.size.forEach((s, k) => {
      if (p.begin[k]! < 0 || p.begin[k]! + s > x.shape[k]!) throw new Error(`compute: slice out of range on axis ${k} of [${x.shape}]`);
    });
    return p.size;
  },
  forward: (i, out, p) => sliceCopy(i[0]!, out, p.begin, false, false),
  backward: (g, i, _o, p) => {
    const r = empty(i[0]!.shape, g.backend);
    sliceCopy(g, r, p.begin, true, false);
    return [r];
  },
});

/**
 * Slice: `begin[k]` (negative counts from the end) and `size[k]` (-1 = to the end) per axis;
 * missing trailing axes are taken whole.
 * @throws Error when out of range.
 */
export function slice(x: Tensor, begin: readonly number[], size?: readonly number[]): Tensor {
  const b: number[] = [];
  const s: number[] = [];
  for (let k = 0; k < x.rank; k++) {
    const d = x.shape[k]!;
    let bk = begin[k] ?? 0;
    if (bk < 0) bk += d;
    let sk = size?.[k] ?? -1;
    if (sk < 0) sk = d - bk;
    b.push(bk);
    s.push(sk);
  }
  return applyOp(sliceDef, [x], { begin: b, size: s });
}

/** Rows/elements `start` (inclusive) to `end` (exclusive) along `axis`. */
export function narrow(x: Tensor, axis: number, start: number, length: number): Tensor {
  const a = normAxis(axis, x.rank);
  const begin = new Array<number>(x.rank).fill(0);
  const size = [...x.shape];
  begin[a] = start;
  size[a] = length;
  return applyOp(sliceDef, [x], { begin, size });
}

/** concat op definition along `axis`. */
export const concatDef = defineOp<{ axis: number }>({
  name: 'concat',
  shape: (i, p) => {
    const first = i[0]!;
    const s = [...first.shape];
    let total = 0;
    for (const t of i) {
      if (t.rank !== first.rank || t.shape.some((d, k) => k !== p.axis && d !== first.shape[k])) {
        throw new Error(`compute: concat: shapes [${first.shape}] and [${t.shape}] differ off axis ${p.axis}`);
      }
      total += t.shape[p.axis]!;
    }
    s[p.axis] = total;
    return s;
  },
  forward: (i, out, p) => {
    let off = 0;
    for (const t of i) {
      const begin = new Array<number>(out.rank).fill(0);
      begin[p.axis] = off;
      sliceCopy(t, out, begin, true, false);
      off += t.shape[p.axis]!;
    }
  },
  backward: (g, i, _o, p) => {
    let off = 0;
    return i.map((t) => {
      const begin = new Array<number>(g.rank).fill(0);
      begin[p.axis] = off;
      off += t.shape[p.axis]!;
      if (!t.requiresGrad) return null;
      const r = empty(t.shape, g.backend);
      sliceCopy(g, r, begin, false, false);
      return r;
    });
  },
});

/** Concatenates tensors along `axis` (default 0). @throws Error on mismatched shapes. */
export function concat(xs: readonly Tensor[], axis = 0): Tensor {
  if (xs.length === 0) throw new Error('compute: concat of nothing');
  return applyOp(concatDef, xs, { axis: normAxis(axis, xs[0]!.rank) });
}

/** Stacks equal-shaped tensors along a new axis. */
export function stack(xs: readonly Tensor[], axis = 0): Tensor {
  return concat(xs.map((x) => unsqueeze(x, axis)), axis);
}

interface GatherParams {
  axis: number;
  perRow: boolean;
}

function gatherGeom(x: Tensor, idx: Tensor, p: GatherParams) {
  let outer = 1;
  let inner = 1;
  for (let k = 0; k < p.axis; k++) outer *= x.shape[k]!;
  for (let k = p.axis + 1; k < x.rank; k++) inner *= x.shape[k]!;
  const count = p.perRow ? idx.shape[p.axis]! : idx.size;
  return { outer, axisSize: x.shape[p.axis]!, inner, count, perRow: p.perRow };
}

/**
 * gather op: inputs [x, idx]. Without perRow: out = x.index_select(axis, idx) with
 * out.shape = x.shape[:axis] + idx.shape + x.shape[axis+1:]. With perRow (take_along_axis on
 * the last axis pattern): idx.shape = x.shape[:axis] + [count]; out.shape = idx.shape + rest.
 */
export const gatherDef = defineOp<GatherParams>({
  name: 'gather',
  shape: (i, p) => {
    const [x, idx] = i as [Tensor, Tensor];
    if (p.perRow) {
      for (let k = 0; k < p.axis; k++) if (idx.shape[k] !== x.shape[k]) throw new Error(`compute: takeAlongAxis: index shape [${idx.shape}] vs [${x.shape}]`);
      if (idx.rank !== p.axis + 1) throw new Error('compute: takeAlongAxis: index rank must be axis+1');
      return [...idx.shape, ...x.shape.slice(p.axis + 1)];
    }
    return [...x.shape.slice(0, p.axis), ...idx.shape, ...x.shape.slice(p.axis + 1)];
  },
  forward: (i, out, p, be) => {
    const [x, idx] = i as [Tensor, Tensor];
    be.dispatch({ kind: 'gather', ...gatherGeom(x, idx, p) }, [x.buffer, idx.buffer], [out.buffer]);
  },
  backward: (g, i, _o, p) => {
    const [x, idx] = i as [Tensor, Tensor];
    const dx = empty(x.shape, x.backend);
    x.backend.dispatch({ kind: 'scatter-add', ...gatherGeom(x, idx, p) }, [g.buffer, idx.buffer], [dx.buffer]);
    return [dx, null];
  },
});

/** Selects entries of `x` along `axis` at integer indices `idx` (any shape; float32 integers). */
export function gather(x: Tensor, idx: Tensor, axis = 0): Tensor {
  return applyOp(gatherDef, [x, idx], { axis: normAxis(axis, x.rank), perRow: false });
}

/** Alias of {@link gather} (PyTorch's `index_select`). */
export const indexSelect = gather;

/**
 * Per-row selection: out[..., j, ...] = x[..., idx[..., j], ...] along `axis`, where
 * idx.shape = x.shape[:axis] + [count] (e.g. log-prob of chosen actions: x [B, K], idx [B, 1]).
 */
export function takeAlongAxis(x: Tensor, idx: Tensor, axis = -1): Tensor {
  return applyOp(gatherDef, [x, idx], { axis: normAxis(axis, x.rank), perRow: true });
}
