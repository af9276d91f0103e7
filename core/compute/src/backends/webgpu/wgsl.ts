/**
 * Shared WGSL building blocks: the uniform-block builder (one field list generates both the WGSL
 * struct and the packing code, so they cannot drift apart), numerically careful math helpers,
 * activation functions and the counter-based RNG of `backend.ts`.
 */

/** Maximum tensor rank the strided kernels handle after dimension collapsing. */
export const MAX_RANK = 8;

/** Scalar uniform field types; `*x8` are 8-element arrays stored as two vec4s. */
export type FieldType = 'u32' | 'i32' | 'f32' | 'u32x8' | 'i32x8';

/** A uniform block layout. */
export interface UniformLayout {
  /** WGSL text `struct Params { ... }` plus the binding-0 declaration `p`. */
  wgsl: string;
  /** Packs values (numbers for scalars, arrays for `*x8`) into the block's bytes. */
  pack(values: Record<string, number | readonly number[]>): Uint32Array;
}

/**
 * Builds a uniform block. Scalars come first (padded to 16 bytes), arrays after, matching WGSL's
 * layout rules.
 */
export function uniforms(fields: ReadonlyArray<readonly [string, FieldType]>): UniformLayout {
  const scalars = fields.filter(([, t]) => t === 'u32' || t === 'i32' || t === 'f32');
  const arrays = fields.filter(([, t]) => t === 'u32x8' || t === 'i32x8');
  const lines: string[] = [];
  const offsets = new Map<string, { off: number; t: FieldType }>();
  let w = 0;
  for (const [n, t] of scalars) {
    lines.push(`  ${n}: ${t},`);
    offsets.set(n, { off: w++, t });
  }
  let pad = 0;
  while (w % 4 !== 0 || w === 0) {
    lines.push(`  _pad${pad++}: u32,`);
    w++;
  }
  for (const [n, t] of arrays) {
    lines.push(`  ${n}: array<vec4<${t === 'u32x8' ? 'u32' : 'i32'}>, 2>,`);
    offsets.set(n, { off: w, t });
    w += 8;
  }
  const words = w;
  const wgsl = `struct Params {\n${lines.join('\n')}\n};\n@group(0) @binding(0) var<uniform> p: Params;\n`;
  return {
    wgsl,
    pack(values) {
      const buf = new ArrayBuffer(words * 4);
      const u = new Uint32Array(buf);
      const i = new Int32Array(buf);
      const f = new Float32Array(buf);
      for (const [name, { off, t }] of offsets) {
        const v = values[name];
        if (v === undefined) continue;
        if (typeof v === 'number') {
          if (t === 'f32') f[off] = v;
          else if (t === 'i32') i[off] = v;
          else u[off] = v >>> 0;
        } else {
          for (let k = 0; k < Math.min(8, v.length); k++) {
            if (t === 'i32x8') i[off + k] = v[k]!;
            else u[off + k] = v[k]! >>> 0;
          }
        }
      }
      return u;
    },
  };
}

/** WGSL expression reading element `d` (a compile-time constant) of an `*x8` uniform field. */
export function at(field: string, d: number): string {
  return `p.${field}[${d >> 2}u][${d & 3}u]`;
}

/** The standard 1-D thread index prologue for `@workgroup_size(256)` kernels (2-D grid aware). */
export const LINEAR_ENTRY = `@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;`;

/**
 * Math helpers with JS (`Math.*`) semantics where WGSL's builtins are undefined or lossy:
 * IEEE constants, `powf` (Math.pow for negative bases and zero), stable `sigmoid`, `tanh`
 * without overflow NaNs, `log1p` and `softplus`.
 */
export const MATH_WGSL = /* wgsl */ `
// Runtime (not const-evaluated) IEEE specials: WGSL rejects inf/NaN in constant expressions.
fn f_bits(b: u32) -> f32 { return bitcast<f32>(b); }
fn f_inf() -> f32 { return f_bits(0x7f800000u); }
fn f_ninf() -> f32 { return f_bits(0xff800000u); }
fn f_nan() -> f32 { return f_bits(0x7fc00000u); }
fn powf(x: f32, y: f32) -> f32 {
  if (y == 0.0) { return 1.0; }
  if (x != x || y != y) { return f_nan(); }
  let ax = abs(x);
  var r: f32;
  if (ax == 0.0) { r = select(0.0, f_inf(), y < 0.0); } else { r = exp2(y * log2(ax)); }
  if (x < 0.0) {
    if (floor(y) != y) { return f_nan(); }
    if (abs(y) < 16777216.0 && (i32(abs(y)) & 1) == 1) { r = -r; }
  }
  return r;
}
fn sigmoidf(x: f32) -> f32 {
  let e = exp(-abs(x));
  return select(e / (1.0 + e), 1.0 / (1.0 + e), x >= 0.0);
}
fn tanhf(x: f32) -> f32 {
  let ax = abs(x);
  if (ax < 0.625) { return tanh(x); }
  let t = exp(-2.0 * ax);
  return sign(x) * (1.0 - t) / (1.0 + t);
}
fn log1pf(u: f32) -> f32 {
  if (abs(u) < 1e-4) { return u * (1.0 - u * (0.5 - u / 3.0)); }
  return log(1.0 + u);
}
fn softplusf(x: f32) -> f32 {
  return max(x, 0.0) + log1pf(exp(-abs(x)));
}
`;

/** Activation names shared with `backend.ts`. */
export type ActivationName = 'none' | 'relu' | 'leaky-relu' | 'tanh' | 'sigmoid' | 'silu';

/** WGSL expression applying `act` to `v` (`alpha` is an expression for the leaky slope). */
export function activationExpr(act: ActivationName, v: string, alpha: string): string {
  switch (act) {
    case 'none':
      return v;
    case 'relu':
      return `max(${v}, 0.0)`;
    case 'leaky-relu':
      return `select(${alpha} * ${v}, ${v}, ${v} > 0.0)`;
    case 'tanh':
      return `tanhf(${v})`;
    case 'sigmoid':
      return `sigmoidf(${v})`;
    case 'silu':
      return `(${v} * sigmoidf(${v}))`;
  }
}

/** The counter-based RNG of `backend.ts` (`hash32`, `randomBitsAt`) in WGSL. */
export const RNG_WGSL = /* wgsl */ `
fn hash32(x0: u32) -> u32 {
  var x = x0;
  x = x ^ (x >> 16u);
  x = x * 0x7feb352du;
  x = x ^ (x >> 15u);
  x = x * 0x846ca68bu;
  x = x ^ (x >> 16u);
  return x;
}
fn random_bits(s0: u32, s1: u32, i: u32) -> u32 {
  return hash32(hash32(i ^ s0) + s1);
}
fn random_uniform(s0: u32, s1: u32, i: u32) -> f32 {
  return f32(random_bits(s0, s1, i) >> 8u) * 5.960464477539063e-8;
}
// ln(1 - u) for u in [0, 1) to ~1e-7 relative: WGSL's log only promises 2^-21 absolute error
// near 1, which is a large relative error there. Uses ln(x) = 2 atanh((x-1)/(x+1)) for u < 1/2.
fn log_one_minus(u: f32) -> f32 {
  if (u >= 0.5) { return log(1.0 - u); }
  let s = -u / (2.0 - u);
  let s2 = s * s;
  return 2.0 * s * (1.0 + s2 * (1.0 / 3.0 + s2 * (0.2 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0 + s2 * (1.0 / 11.0
    + s2 * (1.0 / 13.0 + s2 * (1.0 / 15.0 + s2 * (1.0 / 17.0)))))))));
}
// cos(2 pi u) for u in [0, 1) to ~1e-7: WGSL's cos only promises 2^-11 absolute error.
// Reduce by symmetry to x = 2 pi a, a in [0, 1/4], then a Taylor polynomial to x^14.
fn cos_2pi(u: f32) -> f32 {
  var a = abs(u - floor(u + 0.5));
  var s = 1.0;
  if (a > 0.25) { a = 0.5 - a; s = -1.0; }
  let x = 6.283185307179586 * a;
  let x2 = x * x;
  let c = 1.0 + x2 * (-0.5 + x2 * (4.1666666666666664e-2 + x2 * (-1.3888888888888889e-3 + x2 * (2.48015873015873e-5
    + x2 * (-2.755731922398589e-7 + x2 * (2.08767569878681e-9 + x2 * -1.1470745597729725e-11))))));
  return s * c;
}
`;

/**
 * Collapses dimensions for strided kernels: drops size-1 dims and merges neighbours whose
 * strides are contiguous for every operand (`st[d-1] == st[d] * shape[d]`). Strides are given
 * per operand. Returns the reduced shape and strides (rank may be 0).
 */
export function collapseDims(
  shape: readonly number[],
  strides: ReadonlyArray<readonly number[]>,
): { shape: number[]; strides: number[][] } {
  const outShape: number[] = [];
  const outStrides: number[][] = strides.map(() => []);
  for (let d = 0; d < shape.length; d++) {
    const n = shape[d]!;
    if (n === 1) continue;
    const last = outShape.length - 1;
    if (last >= 0 && strides.every((st, k) => outStrides[k]![last] === st[d]! * n)) {
      outShape[last] = outShape[last]! * n;
      strides.forEach((st, k) => (outStrides[k]![last] = st[d]!));
      continue;
    }
    outShape.push(n);
    strides.forEach((st, k) => outStrides[k]!.push(st[d]!));
  }
  return { shape: outShape, strides: outStrides };
}

/** Row-major strides of `shape` with 0 for broadcast (size-1) dims where `out` is larger. */
export function broadcastStrides(shape: readonly number[], out: readonly number[]): number[] {
  const st = new Array<number>(out.length).fill(0);
  let s = 1;
  for (let d = out.length - 1; d >= 0; d--) {
    const n = shape[d] ?? 1;
    st[d] = n === 1 && out[d] !== 1 ? 0 : s;
    s *= n;
  }
  return st;
}

/**
 * WGSL statements that decompose linear index `idx` over `rank` dims of `shapeField` and
 * accumulate offsets `offs[k] += c * strideFields[k][d]` (declared `var` by the caller).
 */
export function decompose(idx: string, rank: number, shapeField: string, strideFields: readonly string[], offs: readonly string[]): string {
  const lines = [`var rem: u32 = ${idx};`];
  for (let d = rank - 1; d >= 0; d--) {
    lines.push(`{ let s = ${at(shapeField, d)}; let c = ${d === 0 ? 'rem' : 'rem % s'}; ${d === 0 ? '' : 'rem = rem / s;'}`);
    strideFields.forEach((f, k) => lines.push(`  ${offs[k]} = ${offs[k]} + i32(c) * ${at(f, d)};`));
    lines.push('}');
  }
  return lines.join('\n');
}
