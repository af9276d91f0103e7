/**
 * Gather along the middle axis of `[outer, axisSize, inner]` (index-select, or take-along-axis
 * with `perRow`) and its adjoint scatter-add, WGSL. Indices arrive as float32 exact integers and
 * are clamped to `[0, axisSize)`.
 *
 * Scatter-add is written as a gather over the index list (one thread per element of dx, looping
 * over the `count` indices) rather than with atomics: WGSL has no float atomics, and this form
 * is deterministic (the sum order is fixed), which the conformance suite relies on.
 */
import type { GatherKernel, ScatterAddKernel } from '../../backend.ts';
import { grid1d, type GpuRuntime } from '../runtime.ts';
import { LINEAR_ENTRY, uniforms } from '../wgsl.ts';

const PARAMS = uniforms([
  ['outer', 'u32'],
  ['axis', 'u32'],
  ['inner', 'u32'],
  ['count', 'u32'],
  ['size', 'u32'],
]);

const CLAMP = 'fn idx_at(v: f32) -> u32 { return u32(clamp(round(v), 0.0, f32(p.axis) - 1.0)); }';

/** Records `out[o, j, i] = x[o, idx[(o,) j], i]`. */
export function encodeGather(rt: GpuRuntime, k: GatherKernel, x: GPUBuffer, idx: GPUBuffer, out: GPUBuffer): void {
  const size = k.outer * k.count * k.inner;
  if (size === 0) return;
  rt.dispatch(
    `gather:${k.perRow ? 'row' : 'shared'}`,
    () => ({
      bindings: ['r', 'r', 'rw'],
      code: `${PARAMS.wgsl}
@group(0) @binding(1) var<storage, read> xs: array<f32>;
@group(0) @binding(2) var<storage, read> ids: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${CLAMP}
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let ii = i % p.inner;
  let oj = i / p.inner;
  let j = oj % p.count;
  let o = oj / p.count;
  let src = idx_at(ids[${k.perRow ? 'o * p.count + j' : 'j'}]);
  out[i] = xs[(o * p.axis + src) * p.inner + ii];
}`,
    }),
    [x, idx, out],
    PARAMS.pack({ outer: k.outer, axis: k.axisSize, inner: k.inner, count: k.count, size }),
    grid1d(Math.ceil(size / 256)),
  );
}

/** Records `dx = 0; dx[o, idx[(o,) j], i] += dOut[o, j, i]` (fully overwrites dx). */
export function encodeScatterAdd(rt: GpuRuntime, k: ScatterAddKernel, dOut: GPUBuffer, idx: GPUBuffer, dx: GPUBuffer): void {
  const size = k.outer * k.axisSize * k.inner;
  if (size === 0) return;
  rt.dispatch(
    `scatter-add:${k.perRow ? 'row' : 'shared'}`,
    () => ({
      bindings: ['r', 'r', 'rw'],
      code: `${PARAMS.wgsl}
@group(0) @binding(1) var<storage, read> gs: array<f32>;
@group(0) @binding(2) var<storage, read> ids: array<f32>;
@group(0) @binding(3) var<storage, read_write> dx: array<f32>;
${CLAMP}
${LINEAR_ENTRY}
  if (i >= p.size) { return; }
  let ii = i % p.inner;
  let ok = i / p.inner;
  let kk = ok % p.axis;
  let o = ok / p.axis;
  var acc = 0.0;
  for (var j = 0u; j < p.count; j++) {
    if (idx_at(ids[${k.perRow ? 'o * p.count + j' : 'j'}]) == kk) {
      acc = acc + gs[(o * p.count + j) * p.inner + ii];
    }
  }
  dx[i] = acc;
}`,
    }),
    [dOut, idx, dx],
    PARAMS.pack({ outer: k.outer, axis: k.axisSize, inner: k.inner, count: k.count, size }),
    grid1d(Math.ceil(size / 256)),
  );
}
