/**
 * The compute worker's entry: the compute core (WebGPU where an adapter exists, else the
 * WebAssembly/CPU path) behind comlink. Series, weights and predictions move as transferables.
 */
import { expose, transfer } from 'comlink';
import type { ComputeWorkerApi } from './api';
import { createComputeOps } from './ops';

const ops = createComputeOps();

/** The object exposed to the main thread. */
export const computeWorkerApi: ComputeWorkerApi = {
  init: (prefer) => ops.init(prefer),
  async check(file, name) {
    const r = await ops.check(file, name);
    const p = r.preview;
    return p ? transfer(r, [p.obs.buffer, p.act.buffer, ...(p.target ? [p.target.buffer] : [])]) : r;
  },
  async train(settings, onProgress) {
    const run = await ops.train(settings, onProgress);
    return transfer(run, [run.weights.buffer, run.onestep.real.buffer, run.onestep.predicted.buffer]);
  },
  async infer(window, target) {
    const a = await ops.infer(window, target);
    return transfer(a, [a.buffer]);
  },
  cancel: () => ops.cancel(),
};

expose(computeWorkerApi);
