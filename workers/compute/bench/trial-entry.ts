/**
 * Worker entry of the trial bench (bundled by `trial.ts`): runs the feedback-control trial on
 * a generated log on WebGPU (any adapter, SwiftShader included) and on the WebAssembly/CPU path
 * in this module worker, one after the other, and posts the measured figures.
 */
import { syntheticCsv, syntheticLog } from '@decisio/learning/feedback/synthetic.ts';
import type { ComputeBackendPreference, GfsTrialProgress } from '@decisio/domain';
import { createComputeOps } from '../src/ops';

/** One backend's figures. */
export interface TrialBenchFigure {
  asked: ComputeBackendPreference;
  backend: string;
  path: string;
  reason: string;
  adapter?: string;
  /** Steps/s of each phase (measured over the phase), and over both. */
  modelStepsPerSecond: number;
  controllerStepsPerSecond: number;
  stepsPerSecond: number;
  controllerCost: number;
  loggedCost: number;
  modelMse: number;
  error?: string;
}

async function one(asked: ComputeBackendPreference, modelSteps: number, controllerSteps: number, csv: string): Promise<TrialBenchFigure> {
  const ops = createComputeOps();
  const choice = await ops.init(asked);
  await ops.check(new Blob([csv]), 'bench.csv');
  let lastModel: GfsTrialProgress | undefined;
  let lastController: GfsTrialProgress | undefined;
  try {
    const run = await ops.train({ modelSteps, controllerSteps }, (p) => {
      if (p.phase === 'model') lastModel = p;
      if (p.phase === 'controller') lastController = p;
    });
    const m = run.result.metrics;
    return {
      asked,
      backend: choice.backend,
      path: choice.path,
      reason: choice.reason,
      adapter: choice.adapter,
      modelStepsPerSecond: lastModel?.stepsPerSecond ?? 0,
      controllerStepsPerSecond: lastController?.stepsPerSecond ?? 0,
      stepsPerSecond: m.stepsPerSecond,
      controllerCost: m.controllerCost,
      loggedCost: m.loggedCost,
      modelMse: m.modelMse,
    };
  } catch (e) {
    return { asked, backend: choice.backend, path: choice.path, reason: choice.reason, adapter: choice.adapter, modelStepsPerSecond: 0, controllerStepsPerSecond: 0, stepsPerSecond: 0, controllerCost: NaN, loggedCost: NaN, modelMse: NaN, error: e instanceof Error ? e.message : String(e) };
  }
}

self.onmessage = async (e: MessageEvent<{ modelSteps: number; controllerSteps: number; rows: number }>) => {
  const { modelSteps, controllerSteps, rows } = e.data;
  const csv = syntheticCsv(syntheticLog({ rows }));
  const figures: TrialBenchFigure[] = [];
  for (const asked of ['webgpu', 'cpu'] as const) figures.push(await one(asked, modelSteps, controllerSteps, csv));
  (self as unknown as Worker).postMessage({ figures, isolated: globalThis.crossOriginIsolated === true, cores: navigator.hardwareConcurrency });
};
