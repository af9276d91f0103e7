/**
 * A multi-node industrial process: a heated buffer tank between a supply pump and a downstream
 * consumer. The tank's state is `[level %, temperature °C]`; the downstream demand (an external
 * factor read from data: a daily wave with an AR(1) disturbance, independent of the policy) draws
 * water out; the agent sets the pump's valve opening and the heater power (`control`). The
 * pump's real flow is a node of its own (`flow`, learned from data): it falls with the tank's
 * back-pressure and reaches the tank one step late (half of it: a transport delay), so the
 * policy reads the last three frames of the tank (`ts_tank`, REVIVE's `ts: 3`) as well as the
 * demand. As in REVIVE's `ts` examples the history node is the state (`next_ts_tank` is the
 * transition), so rollouts carry the frames forward. The fresh water is 15 °C; the tank loses
 * heat to a 15 °C room.
 * Reward: `-(|level - 60| / 10 + |temperature - 55| / 5) - 0.02 · heater² - 0.01 · valve` after the step.
 * The behaviour policy is a noisy proportional controller on the current level and temperature
 * that ignores the demand and the delay, so it oscillates and lags the demand.
 */
import { clamp, defineTask, type Simulator, type StepValues, type TaskPolicy } from './common';

const LEVEL_TARGET = 60;
const TEMP_TARGET = 55;
const FRESH = 15;
const PERIOD = 48;
const FRAMES = 3;

const YAML = `metadata:
  graph:
    control:
    - ts_tank
    - demand
    flow:
    - control
    - ts_tank
    next_ts_tank:
    - ts_tank
    - flow
    - demand
    - control
  columns:
  - tank_level:
      dim: tank
      type: continuous
      max: 100
      min: 0
  - tank_temperature:
      dim: tank
      type: continuous
      max: 90
      min: 10
  - downstream_demand:
      dim: demand
      type: continuous
      max: 12
      min: 0
  - valve_opening:
      dim: control
      type: continuous
      max: 10
      min: 0
  - heater_power:
      dim: control
      type: continuous
      max: 10
      min: 0
  - pump_flow:
      dim: flow
      type: continuous
      max: 12
      min: 0
  nodes:
    tank:
      ts: ${FRAMES}
`;

const REWARD_PY = `def get_reward(data):
    '''Level near 60 % and temperature near 55 °C with little heating and pumping (numpy or torch).
    The tank after the step: next_tank in the logged data, the last frame of next_ts_tank in rollouts.'''
    after = data['next_tank'] if 'next_tank' in data else data['next_ts_tank'][..., -2:]
    level = after[..., 0:1]
    temperature = after[..., 1:2]
    valve = data['control'][..., 0:1]
    heater = data['control'][..., 1:2]
    return - (abs(level - 60) / 10 + abs(temperature - 55) / 5) - 0.02 * heater * heater - 0.01 * valve
`;

/** The pump's flow at a valve opening and tank level (back-pressure). */
const pumpFlow = (valve: number, level: number): number => clamp(valve, 0, 10) * (1.2 - level / 200);

/** A fresh simulator: the demand's phase, the step and the flow still on its way live in it. */
function makeSim(): Simulator {
  let phase = 0;
  let t = 0;
  let pending = 0;
  let frames: number[][] = [];
  let disturbance = 0;
  const demandAt = (rng: { normal(): number }) => {
    disturbance = 0.8 * disturbance + 0.4 * rng.normal();
    return clamp(5 + 3 * Math.sin((2 * Math.PI * (t + phase)) / PERIOD) + disturbance, 0, 12);
  };
  const history = () => frames.flat();
  return {
    reset(rng) {
      phase = rng.int(PERIOD);
      t = 0;
      pending = 0;
      disturbance = 0;
      const tank = [30 + rng.next() * 50, 35 + rng.next() * 35];
      frames = Array.from({ length: FRAMES }, () => tank);
      return { tank, ts_tank: history(), demand: [demandAt(rng)] };
    },
    step(inputs, decision, rng) {
      const [level, temp] = inputs['tank'] as [number, number];
      const demand = inputs['demand']![0]!;
      const valve = clamp(decision['control']![0]!, 0, 10);
      const heater = clamp(decision['control']![1]!, 0, 10);
      const flow = clamp(pumpFlow(valve, level) + 0.1 * rng.normal(), 0, 12);
      // half of the flow reaches the tank now, half next step
      const arriving = 0.5 * flow + pending;
      pending = 0.5 * flow;
      const water = Math.max(level, 1);
      const nextLevel = clamp(level + arriving - demand + 0.2 * rng.normal(), 0, 100);
      const mixed = temp + (arriving * (FRESH - temp)) / (water + arriving);
      const nextTemp = clamp(mixed + 0.6 * heater - 0.02 * (temp - FRESH) + 0.1 * rng.normal(), 10, 90);
      const next = [nextLevel, nextTemp];
      frames = [...frames.slice(1), next];
      t += 1;
      return { next: { tank: next }, nextInputs: { tank: next, ts_tank: history(), demand: [demandAt(rng)] }, extra: { flow: [flow], control: [valve, heater] } };
    },
  };
}

/** Noisy proportional control of the current level and temperature; ignores the demand and the delay. */
const behaviourPolicy: TaskPolicy = (inputs, rng) => {
  const [level, temp] = inputs['tank'] as [number, number];
  const valve = clamp(4 + 0.4 * (LEVEL_TARGET - level) + 1.5 * rng.normal(), 0, 10);
  const heater = clamp(2 + 0.3 * (TEMP_TARGET - temp) + 1.0 * rng.normal(), 0, 10);
  return { control: [valve, heater] };
};

/** Feeds the demand forward, counts the flow still on its way (from the history) and holds the heat balance. */
export const plantExpertPolicy: TaskPolicy = (inputs) => {
  const frames = inputs['ts_tank']!;
  const [level, temp] = (inputs['tank'] ?? frames.slice(-2)) as [number, number];
  const demand = inputs['demand']![0]!;
  const prevLevel = frames[frames.length - 4] ?? level;
  // what still arrives from the last step's flow: the level's rise beyond what the demand explains, roughly
  const trend = level - prevLevel;
  const wanted = clamp(demand + 0.3 * (LEVEL_TARGET - level) - 0.3 * trend, 0, 12);
  const valve = clamp(wanted / (1.2 - level / 200), 0, 10);
  const flow = pumpFlow(valve, level);
  const cooling = 0.02 * (temp - FRESH) + (flow * (temp - FRESH)) / (Math.max(level, 1) + flow);
  const heater = clamp((cooling + 0.5 * (TEMP_TARGET - temp)) / 0.6, 0, 10);
  return { control: [valve, heater] };
};

/** The buffer-tank reference task (several nodes, an external factor, a history node). */
export const plantTask = defineTask(
  {
    id: 'plant',
    title: 'Heated buffer tank with a pump, a transport delay and downstream demand',
    yaml: YAML,
    rewardPy: REWARD_PY,
    horizon: 120,
    agent: 'control',
    reward(step: StepValues) {
      const [level, temp] = (step['next_tank'] ?? step['next_ts_tank']!.slice(-2)) as [number, number];
      const [valve, heater] = step['control'] as [number, number];
      return -(Math.abs(level - LEVEL_TARGET) / 10 + Math.abs(temp - TEMP_TARGET) / 5) - 0.02 * heater * heater - 0.01 * valve;
    },
    behaviourPolicy,
  },
  makeSim,
  // the offline data holds the frames (`tank`, `next_tank`) and the next history (`next_ts_tank`,
  // so no row is dropped); `ts_tank` is built from the frames, as REVIVE does
  ({ ts_tank: history, ...row }) => ({ ...row, next_ts_tank: [...history!.slice(2), ...row['next_tank']!] }),
);
