/**
 * The model behind the public electric demo: a cold-room dynamics model fitted by least squares
 * to the electric template's own data (`next = c0 + c1·t + c2·door + c3·door·t + c4·power`,
 * rooms 1–18 to fit, rooms 19–20 held out), and a controller that picks the cooling power whose
 * predicted next step scores best on the template's reward (one-step lookahead over a 0.01 grid).
 * Everything is computed once, at first use, from the template's data (read from the electric
 * template plugin through the template registry); the comparison runs
 * the controller and the template's logged (behaviour) controller in the template's true simulator.
 */
import type { ElectricEpisodeScore, ElectricModelInfo } from '@decisio/domain';
import { thermalTask, type TaskPolicy } from '@decisio/learning';
import type { ServerTemplateTable } from '@decisio/sdk-plugin/server';

/** The electric template's table as columns of numbers (one entry per logged quarter-hour). */
export interface ColdRoomData {
  /** 1-based room of each row, its step within the room and its time (ISO). */
  room: number[];
  step: number[];
  time: string[];
  temperature: number[];
  doorOpen: number[];
  power: number[];
  nextTemperature: number[];
  /** Cumulative row ends of the rooms, in order (REVIVE's `index`). */
  ends: number[];
}

/**
 * The columns of the electric template's data file (`plugins/template-electric`): `room, step,
 * time, obs_temp, factor_door_state, power_action, next_obs_temp`.
 * @throws Error when a column is missing.
 */
export function coldRoomData(table: ServerTemplateTable): ColdRoomData {
  const time = table.columns.indexOf('time');
  if (time < 0) throw new Error('electric template data: no column "time"');
  return {
    room: table.numbers('room'),
    step: table.numbers('step'),
    time: table.rows.map((r) => r[time]!),
    temperature: table.numbers('obs_temp'),
    doorOpen: table.numbers('factor_door_state'),
    power: table.numbers('power_action'),
    nextTemperature: table.numbers('next_obs_temp'),
    ends: table.trajectories.map((t) => t.end),
  };
}

const FIT_TRAJECTORIES = 18;
const POWER_MAX = 10;
const POWER_STEP = 0.01;
const TARGET = -2;
/** Episodes and steps of the simulator comparison (seeds 1..EPISODES). */
export const COMPARE_EPISODES = 5;
export const COMPARE_STEPS = 200;
/** Steps of a forecast (15 minutes each: 12 hours). */
export const FORECAST_STEPS = 48;

const features = (t: number, door: number, power: number) => [1, t, door, door * t, power];

/** Solves `a x = b` (small dense system) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

export class ColdRoomModel {
  private constructor(
    readonly coefficients: number[],
    readonly heldOutMae: number,
    readonly trainingRows: number,
  ) {}

  /** Fits the model to the electric template's data (its first 18 rooms; the others are held out). */
  static fit(data: ColdRoomData): ColdRoomModel {
    const columns = { temperature: data.temperature, door_open: data.doorOpen, action: data.power, next_temperature: data.nextTemperature };
    const col = (node: keyof typeof columns, row: number) => columns[node][row]!;
    const fitEnd = data.ends[FIT_TRAJECTORIES - 1]!;
    const rows = data.ends[data.ends.length - 1]!;
    const xtx = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
    const xty = new Array<number>(5).fill(0);
    for (let r = 0; r < fitEnd; r++) {
      const x = features(col('temperature', r), col('door_open', r), col('action', r));
      const y = col('next_temperature', r);
      for (let i = 0; i < 5; i++) {
        xty[i]! += x[i]! * y;
        for (let j = 0; j < 5; j++) xtx[i]![j]! += x[i]! * x[j]!;
      }
    }
    const c = solve(xtx, xty);
    let err = 0;
    for (let r = fitEnd; r < rows; r++) {
      const x = features(col('temperature', r), col('door_open', r), col('action', r));
      err += Math.abs(x.reduce((s, v, i) => s + v * c[i]!, 0) - col('next_temperature', r));
    }
    return new ColdRoomModel(c, err / (rows - fitEnd), fitEnd);
  }

  info(): ElectricModelInfo {
    return { kind: 'least-squares-dynamics+lookahead', coefficients: this.coefficients, heldOutMae: this.heldOutMae, trainingRows: this.trainingRows };
  }

  /** Predicted next temperature. */
  predict(t: number, doorOpen: boolean, power: number): number {
    return features(t, doorOpen ? 1 : 0, power).reduce((s, v, i) => s + v * this.coefficients[i]!, 0);
  }

  /** The power in [0, 10] whose predicted next step has the best template reward. */
  decide(t: number, doorOpen: boolean): { power: number; predictedNext: number } {
    let best = { power: 0, predictedNext: this.predict(t, doorOpen, 0), reward: -Infinity };
    for (let k = 0; k * POWER_STEP <= POWER_MAX + 1e-9; k++) {
      const power = Math.round(k * POWER_STEP * 100) / 100;
      const next = this.predict(t, doorOpen, power);
      const reward = thermalTask.reward({ next_temperature: [next], action: [power] });
      if (reward > best.reward) best = { power, predictedNext: next, reward };
    }
    return { power: best.power, predictedNext: best.predictedNext };
  }

  /** The model's forecast from a state under its own decisions, door closed after the first step. */
  forecast(t: number, doorOpen: boolean): { step: number; temperature: number; power: number }[] {
    const out = [];
    let temp = t;
    for (let step = 0; step < FORECAST_STEPS; step++) {
      const d = this.decide(temp, step === 0 && doorOpen);
      out.push({ step, temperature: temp, power: d.power });
      temp = d.predictedNext;
    }
    return out;
  }

  /** The lookahead controller and the template's logged controller, run in the true simulator on the same seeds. */
  compare(): { episodes: number; steps: number; model: ElectricEpisodeScore; logged: ElectricEpisodeScore } {
    const policy: TaskPolicy = (inputs) => ({ action: [this.decide(inputs['temperature']![0]!, inputs['door_open']![0]! > 0.5).power] });
    const score = (p: TaskPolicy): ElectricEpisodeScore => {
      let ret = 0;
      let dev = 0;
      let power = 0;
      for (let seed = 1; seed <= COMPARE_EPISODES; seed++) {
        const run = thermalTask.simulate(p, COMPARE_STEPS, seed);
        ret += run.return;
        const next = run.data.arrays['next_temperature']!.data;
        const act = run.data.arrays['action']!.data;
        for (let i = 0; i < next.length; i++) {
          dev += Math.abs(Number(next[i]) - TARGET);
          power += Number(act[i]);
        }
      }
      const n = COMPARE_EPISODES * COMPARE_STEPS;
      return { meanReturn: ret / COMPARE_EPISODES, meanDeviation: dev / n, meanPower: power / n };
    };
    return { episodes: COMPARE_EPISODES, steps: COMPARE_STEPS, model: score(policy), logged: score(thermalTask.behaviourPolicy) };
  }
}
