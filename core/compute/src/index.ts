/**
 * @decisio/compute: isomorphic float32 tensors with reverse-mode autograd, nn layers,
 * optimizers, distributions, weight serialisation and ONNX export, on pluggable backends
 * (CPU: wasm SIMD / native BLAS / JS; WebGPU).
 */
export type * from './backends/backend.ts';
export { hash32, randomUniformAt, randomNormalAt, randomBitsAt, shapeSize, contiguousStrides, kernelKey } from './backends/backend.ts';
export {
  registerBackend,
  setBackend,
  getBackend,
  listBackends,
  loadBackend,
  setBackendLogger,
  useBackendInstance,
} from './backends/registry.ts';
export type { BackendFactory } from './backends/registry.ts';
export { registerWebGPUBackend } from './backends/webgpu/index.ts';
export { cpuBackend, CpuBackend, availableMatmulPaths, selectMatmulPath, jsMatmulPath, prepareCpuBackend, prepareWasmPool } from './backends/cpu/index.ts';
export { setNativeThreads, getNativeThreads, nativeBlasCore } from './backends/cpu/native-blas.ts';
export type { MatmulPath, CpuBuffer } from './backends/cpu/index.ts';
export {
  Tensor,
  Storage,
  tensor,
  scalar,
  empty,
  zeros,
  ones,
  full,
  zerosLike,
  onesLike,
  arange,
  parameter,
  tidy,
  keep,
  noGrad,
  isGradEnabled,
  setGradEnabled,
} from './tensor.ts';
export type { GradNode } from './tensor.ts';
export { backward, grad, zeroGrad, detach, applyOp, defineOp } from './autograd.ts';
export type { OpDef } from './autograd.ts';
export * from './ops/index.ts';
export * from './nn/index.ts';
export * from './optim/index.ts';
export * from './distributions/index.ts';
export * from './io/index.ts';
