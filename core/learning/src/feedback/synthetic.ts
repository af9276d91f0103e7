/**
 * A trial log with a known response, for tests, the bench and the e2e spec: a first-order plant
 * `y[t+1] = a*y[t] + b*u[t] + noise` (optionally with a second obs/act dimension), a set-point
 * that steps between levels, and logged actions that are a poor operator: random moves around a
 * mean with no feedback at all. A controller that uses the error must beat them.
 */
import { rng, type TrialSeries } from './data.ts';

export interface SyntheticLogOptions {
  rows?: number;
  /** Plant pole (0..1). */
  a?: number;
  /** Action gain. */
  b?: number;
  noise?: number;
  seed?: number;
}

/** Builds the log; `target` is included as its own series. */
export function syntheticLog(options: SyntheticLogOptions = {}): TrialSeries {
  const rows = options.rows ?? 1200;
  const a = options.a ?? 0.9;
  const b = options.b ?? 0.5;
  const noise = options.noise ?? 0.02;
  const r = rng(options.seed ?? 7);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const obs = new Float32Array(rows);
  const act = new Float32Array(rows);
  const target = new Float32Array(rows);
  let y = 0;
  for (let t = 0; t < rows; t++) {
    target[t] = Math.floor(t / 150) % 2 === 0 ? 1 : 2;
    obs[t] = y;
    act[t] = 0.2 + 0.8 * (r() * 2 - 1);
    y = a * y + b * act[t]! + noise * gauss();
  }
  return { rows, obsDim: 1, actDim: 1, obs, act, target };
}

/** The same log as csv text (`obs,act,target` header). */
export function syntheticCsv(s: TrialSeries): string {
  const lines = ['obs,act,target'];
  for (let t = 0; t < s.rows; t++) lines.push(`${s.obs[t]},${s.act[t]},${s.target ? s.target[t] : ''}`);
  return `${lines.join('\n')}\n`;
}
