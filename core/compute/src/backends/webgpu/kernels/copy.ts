/**
 * Strided copy, WGSL: dst[dOff + Σ i·dStride] (+)= src[sOff + Σ i·sStride] over a multi-index
 * i of `shape`. This one kernel materialises transpose, slice, concat pieces and broadcast
 * expansion, and (with `accumulate`) their adjoints.
 *
 * Dimensions with a zero dst stride (several source elements landing on one dst element, e.g.
 * the adjoint of a broadcast) are looped over inside a thread, in index order, so there are no
 * write races: with `accumulate` they are summed, without it the last one wins (the sequential
 * semantics). All other dims are spread over threads after collapsing contiguous runs.
 */
import type { CopyKernel } from '../../backend.ts';
import { grid1d, type GpuRuntime } from '../runtime.ts';
import { LINEAR_ENTRY, MAX_RANK, at, collapseDims, uniforms } from '../wgsl.ts';

const PARAMS = uniforms([
  ['size', 'u32'],
  ['serialSize', 'u32'],
  ['sOff', 'i32'],
  ['dOff', 'i32'],
  ['shape', 'u32x8'],
  ['ss', 'i32x8'],
  ['ds', 'i32x8'],
  ['rShape', 'u32x8'],
  ['rss', 'i32x8'],
]);

/** Records the strided copy into `dst` (only the addressed elements are written). */
export function encodeCopy(rt: GpuRuntime, k: CopyKernel, src: GPUBuffer, dst: GPUBuffer): void {
  let total = 1;
  for (const d of k.shape) total *= d;
  if (total === 0) return;
  const par: number[] = [];
  const parS: number[] = [];
  const parD: number[] = [];
  const ser: number[] = [];
  const serS: number[] = [];
  k.shape.forEach((n, d) => {
    if (n === 1) return;
    if (k.dstStrides[d] === 0) {
      ser.push(n);
      serS.push(k.srcStrides[d]!);
    } else {
      par.push(n);
      parS.push(k.srcStrides[d]!);
      parD.push(k.dstStrides[d]!);
    }
  });
  const p = collapseDims(par, [parS, parD]);
  const r = collapseDims(ser, [serS]);
  if (p.shape.length > MAX_RANK || r.shape.length > MAX_RANK) throw new RangeError('webgpu: copy rank too large');
  const rank = p.shape.length;
  const rRank = r.shape.length;
  let size = 1;
  for (const n of p.shape) size *= n;
  let serialSize = 1;
  for (const n of r.shape) serialSize *= n;
  const lines: string[] = ['var so: i32 = p.sOff;', 'var dof: i32 = p.dOff;', 'var rem: u32 = i;'];
  for (let d = rank - 1; d >= 0; d--) {
    lines.push(
      `{ let s = ${at('shape', d)}; let c = i32(rem % s); rem = rem / s; so = so + c * ${at('ss', d)}; dof = dof + c * ${at('ds', d)}; }`,
    );
  }
  const serialOff: string[] = ['var ro: i32 = 0;', 'var rr: u32 = q;'];
  for (let d = rRank - 1; d >= 0; d--) {
    serialOff.push(`{ let s = ${at('rShape', d)}; ro = ro + i32(rr % s) * ${at('rss', d)}; rr = rr / s; }`);
  }
  const body =
    rRank === 0
      ? `dst[dof] = ${k.accumulate ? 'dst[dof] + ' : ''}src[so];`
      : `var acc: f32 = ${k.accumulate ? 'dst[dof]' : '0.0'};
  for (var q = 0u; q < p.serialSize; q++) {
    ${serialOff.join('\n    ')}
    ${k.accumulate ? 'acc = acc + src[so + ro];' : 'acc = src[so + ro];'}
  }
  dst[dof] = acc;`;
  rt.dispatch(
    `copy:${rank}:${rRank}:${k.accumulate ? 'acc' : 'set'}`,
    () => ({
      bindings: ['r', 'rw'],
      code: `${PARAMS.wgsl}
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  ${lines.join('\n  ')}
  ${body}
}`,
    }),
    [src, dst],
    PARAMS.pack({
      size,
      serialSize,
      sOff: k.srcOffset,
      dOff: k.dstOffset,
      shape: p.shape,
      ss: p.strides[0]!,
      ds: p.strides[1]!,
      rShape: r.shape,
      rss: r.strides[0]!,
    }),
    grid1d(Math.ceil(size / 256)),
  );
}
