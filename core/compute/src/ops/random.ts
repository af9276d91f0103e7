/**
 * Seedable random tensors. A {@link Generator} hands out 64-bit keys; the backend's counter-based
 * `random` kernel turns (key, index) into numbers, so results are identical on every backend and
 * independent of dispatch order within one call.
 */
import type { Backend } from '../backends/backend.ts';
import { hash32 } from '../backends/backend.ts';
import { getBackend } from '../backends/registry.ts';
import { Tensor, empty } from '../tensor.ts';

/** A seedable stream of random keys. Same seed, same sequence of tensors. */
export class Generator {
  private s0: number;
  private s1: number;
  private counter = 0;

  /** @param seed any integer (uses its low 53 bits) */
  constructor(seed = 0) {
    this.s0 = hash32(seed >>> 0);
    this.s1 = hash32((Math.floor(seed / 4294967296) ^ 0x9e3779b9) >>> 0);
  }

  /** Resets to a seed. */
  manualSeed(seed: number): void {
    const g = new Generator(seed);
    this.s0 = g.s0;
    this.s1 = g.s1;
    this.counter = 0;
  }

  /** Next 64-bit key as two u32 words. */
  nextKey(): [number, number] {
    const c = this.counter++;
    return [hash32((this.s0 + Math.imul(c, 0x9e3779b9)) >>> 0), hash32((this.s1 ^ c) >>> 0)];
  }

  /** A uniform float in [0, 1) drawn on the host (for host-side sampling decisions). */
  nextFloat(): number {
    const k = this.nextKey();
    return (hash32((k[0] ^ k[1]) >>> 0) >>> 8) * 5.960464477539063e-8;
  }
}

/** The default generator used when none is given. */
export const defaultGenerator = new Generator(0);

/** Re-seeds the default generator. */
export function manualSeed(seed: number): void {
  defaultGenerator.manualSeed(seed);
}

/** Options of random tensor creation. */
export interface RandomOptions {
  generator?: Generator;
  backend?: Backend;
}

/** Uniform samples in [lo, hi). Not differentiable. */
export function randomUniform(shape: readonly number[], lo = 0, hi = 1, opts: RandomOptions = {}): Tensor {
  const be = opts.backend ?? getBackend();
  const t = empty(shape, be);
  const seed = (opts.generator ?? defaultGenerator).nextKey();
  if (t.size) be.dispatch({ kind: 'random', dist: 'uniform', size: t.size, seed, a: lo, b: hi }, [], [t.buffer]);
  return t;
}

/** Normal samples with the given mean and standard deviation. Not differentiable. */
export function randomNormal(shape: readonly number[], mean = 0, std = 1, opts: RandomOptions = {}): Tensor {
  const be = opts.backend ?? getBackend();
  const t = empty(shape, be);
  const seed = (opts.generator ?? defaultGenerator).nextKey();
  if (t.size) be.dispatch({ kind: 'random', dist: 'normal', size: t.size, seed, a: mean, b: std }, [], [t.buffer]);
  return t;
}
