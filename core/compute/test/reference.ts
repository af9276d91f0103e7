/**
 * Float64 reference implementations for the conformance suite: plain arrays, no autograd.
 * Each op mirrors one public op of the compute core.
 */
export interface R {
  shape: number[];
  data: Float64Array;
}

export const size = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);
export const strides = (s: readonly number[]): number[] => {
  const st = new Array<number>(s.length);
  let k = 1;
  for (let i = s.length - 1; i >= 0; i--) {
    st[i] = k;
    k *= s[i]!;
  }
  return st;
};

export function map(x: R, f: (v: number) => number): R {
  return { shape: [...x.shape], data: x.data.map(f) };
}

function bshape(a: readonly number[], b: readonly number[]): number[] {
  const r = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < r; i++) {
    const da = a[a.length - r + i] ?? 1;
    const db = b[b.length - r + i] ?? 1;
    out.push(da === 1 ? db : da);
  }
  return out;
}

function bindex(flat: number, out: readonly number[], s: readonly number[]): number {
  const r = out.length;
  const ps = [...new Array<number>(r - s.length).fill(1), ...s];
  const st = strides(ps);
  let rem = flat;
  let idx = 0;
  const os = strides(out);
  for (let d = 0; d < r; d++) {
    const i = Math.floor(rem / os[d]!);
    rem -= i * os[d]!;
    if (ps[d] !== 1) idx += i * st[d]!;
  }
  return idx;
}

export function zip(a: R, b: R, f: (x: number, y: number) => number): R {
  const s = bshape(a.shape, b.shape);
  const n = size(s);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = f(a.data[bindex(i, s, a.shape)]!, b.data[bindex(i, s, b.shape)]!);
  return { shape: s, data: d };
}

export function where3(c: R, a: R, b: R): R {
  const s = bshape(bshape(c.shape, a.shape), b.shape);
  const n = size(s);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = c.data[bindex(i, s, c.shape)] !== 0 ? a.data[bindex(i, s, a.shape)]! : b.data[bindex(i, s, b.shape)]!;
  return { shape: s, data: d };
}

export function reduce(x: R, axes: number[], op: 'sum' | 'mean' | 'max' | 'min', keep = false): R {
  const r = x.shape.length;
  const ax = axes.map((a) => (a < 0 ? a + r : a));
  const outShapeK = x.shape.map((d, i) => (ax.includes(i) ? 1 : d));
  const n = size(outShapeK);
  const init = op === 'max' ? -Infinity : op === 'min' ? Infinity : 0;
  const d = new Float64Array(n).fill(init);
  const st = strides(x.shape);
  const ost = strides(outShapeK);
  let cnt = 1;
  for (const a of ax) cnt *= x.shape[a]!;
  for (let i = 0; i < x.data.length; i++) {
    let rem = i;
    let o = 0;
    for (let dd = 0; dd < r; dd++) {
      const id = Math.floor(rem / st[dd]!);
      rem -= id * st[dd]!;
      if (!ax.includes(dd)) o += id * ost[dd]!;
    }
    const v = x.data[i]!;
    if (op === 'sum' || op === 'mean') d[o] = d[o]! + v;
    else if (op === 'max') d[o] = Math.max(d[o]!, v);
    else d[o] = Math.min(d[o]!, v);
  }
  if (op === 'mean') for (let i = 0; i < n; i++) d[i] = d[i]! / cnt;
  return { shape: keep ? outShapeK : x.shape.filter((_, i) => !ax.includes(i)), data: d };
}

export function matmul(a: R, b: R, tA = false, tB = false): R {
  const ar = a.shape.length;
  const br = b.shape.length;
  const am = a.shape[ar - 2]!, ak = a.shape[ar - 1]!;
  const bm = b.shape[br - 2]!, bk = b.shape[br - 1]!;
  const m = tA ? ak : am, k = tA ? am : ak, n = tB ? bm : bk;
  const ab = a.shape.slice(0, -2), bb = b.shape.slice(0, -2);
  const batchShape = ab.length ? ab : bb;
  const batch = size(batchShape);
  const d = new Float64Array(batch * m * n);
  for (let q = 0; q < batch; q++) {
    const ao = ab.length ? q * am * ak : 0;
    const bo = bb.length ? q * bm * bk : 0;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < k; p++) {
          const av = tA ? a.data[ao + p * ak + i]! : a.data[ao + i * ak + p]!;
          const bv = tB ? b.data[bo + j * bk + p]! : b.data[bo + p * bk + j]!;
          s += av * bv;
        }
        d[q * m * n + i * n + j] = s;
      }
  }
  return { shape: [...batchShape, m, n], data: d };
}

export function softmaxLast(x: R, mode: 'softmax' | 'log-softmax' | 'logsumexp'): R {
  const n = x.shape[x.shape.length - 1]!;
  const rows = x.data.length / n;
  const out = new Float64Array(mode === 'logsumexp' ? rows : x.data.length);
  for (let r = 0; r < rows; r++) {
    let mx = -Infinity;
    for (let j = 0; j < n; j++) mx = Math.max(mx, x.data[r * n + j]!);
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.exp(x.data[r * n + j]! - mx);
    const l = mx + Math.log(s);
    if (mode === 'logsumexp') out[r] = l;
    else for (let j = 0; j < n; j++) out[r * n + j] = mode === 'softmax' ? Math.exp(x.data[r * n + j]! - l) : x.data[r * n + j]! - l;
  }
  return { shape: mode === 'logsumexp' ? x.shape.slice(0, -1) : [...x.shape], data: out };
}

export function permute(x: R, perm: number[]): R {
  const s = perm.map((p) => x.shape[p]!);
  const st = strides(x.shape);
  const os = strides(s);
  const d = new Float64Array(x.data.length);
  for (let i = 0; i < d.length; i++) {
    let rem = i;
    let src = 0;
    for (let k = 0; k < s.length; k++) {
      const id = Math.floor(rem / os[k]!);
      rem -= id * os[k]!;
      src += id * st[perm[k]!]!;
    }
    d[i] = x.data[src]!;
  }
  return { shape: s, data: d };
}

export function sliceR(x: R, begin: number[], sz: number[]): R {
  const st = strides(x.shape);
  const os = strides(sz);
  const d = new Float64Array(size(sz));
  for (let i = 0; i < d.length; i++) {
    let rem = i;
    let src = 0;
    for (let k = 0; k < sz.length; k++) {
      const id = Math.floor(rem / os[k]!);
      rem -= id * os[k]!;
      src += (id + begin[k]!) * st[k]!;
    }
    d[i] = x.data[src]!;
  }
  return { shape: sz, data: d };
}

export function concatR(xs: R[], axis: number): R {
  const s = [...xs[0]!.shape];
  s[axis] = xs.reduce((a, x) => a + x.shape[axis]!, 0);
  const os = strides(s);
  const d = new Float64Array(size(s));
  let off = 0;
  for (const x of xs) {
    const st = strides(x.shape);
    for (let i = 0; i < x.data.length; i++) {
      let rem = i;
      let dst = 0;
      for (let k = 0; k < s.length; k++) {
        const id = Math.floor(rem / st[k]!);
        rem -= id * st[k]!;
        dst += (k === axis ? id + off : id) * os[k]!;
      }
      d[dst] = x.data[i]!;
    }
    off += x.shape[axis]!;
  }
  return { shape: s, data: d };
}

export function gatherR(x: R, idx: number[], axis: number): R {
  const outer = size(x.shape.slice(0, axis));
  const inner = size(x.shape.slice(axis + 1));
  const ax = x.shape[axis]!;
  const d = new Float64Array(outer * idx.length * inner);
  for (let o = 0; o < outer; o++)
    for (let j = 0; j < idx.length; j++)
      for (let i = 0; i < inner; i++) d[(o * idx.length + j) * inner + i] = x.data[(o * ax + idx[j]!) * inner + i]!;
  return { shape: [...x.shape.slice(0, axis), idx.length, ...x.shape.slice(axis + 1)], data: d };
}

export function takeAlongLast(x: R, idx: number[]): R {
  const n = x.shape[x.shape.length - 1]!;
  const rows = x.data.length / n;
  const d = new Float64Array(rows);
  for (let r = 0; r < rows; r++) d[r] = x.data[r * n + idx[r]!]!;
  return { shape: [...x.shape.slice(0, -1), 1], data: d };
}

/** Layer norm over the last axis (biased variance), float64. */
export function layerNormLast(x: R, gamma: R | null, beta: R | null, eps: number): R {
  const d = x.shape[x.shape.length - 1]!;
  const out = new Float64Array(x.data.length);
  for (let o = 0; o < x.data.length; o += d) {
    let s = 0;
    for (let j = 0; j < d; j++) s += x.data[o + j]!;
    const mu = s / d;
    let v = 0;
    for (let j = 0; j < d; j++) v += (x.data[o + j]! - mu) ** 2;
    const rs = 1 / Math.sqrt(v / d + eps);
    for (let j = 0; j < d; j++) out[o + j] = (x.data[o + j]! - mu) * rs * (gamma ? gamma.data[j]! : 1) + (beta ? beta.data[j]! : 0);
  }
  return { shape: [...x.shape], data: out };
}
