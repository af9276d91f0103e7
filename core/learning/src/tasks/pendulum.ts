/**
 * Pendulum swing-up and balance (the classic control task, Gym `Pendulum-v1` dynamics), with
 * a continuous torque. States are `[cos θ, sin θ, θ̇]`; the reward is REVIVE's pendulum
 * reward: `-(θ² + 0.1 θ̇² + 0.001 u²)` measured before the step. The behaviour policy is a
 * noisy PD controller around the top with a weak energy pump: it swings up slowly and
 * balances poorly, so the data covers the state space and a much better policy exists.
 */
import { clamp, defineTask, type Simulator, type StepValues, type TaskPolicy } from './common';

const G = 10;
const M = 1;
const L = 1;
const DT = 0.05;
const MAX_SPEED = 8;
const MAX_TORQUE = 2;

const angleNormalize = (x: number): number => ((((x + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI;

const YAML = `metadata:
  graph:
    actions:
    - states
    next_states:
    - states
    - actions
  columns:
  - obs_states_0:
      dim: states
      type: continuous
      max: 1
      min: -1
  - obs_states_1:
      dim: states
      type: continuous
      max: 1
      min: -1
  - obs_states_2:
      dim: states
      type: continuous
      max: 8
      min: -8
  - action:
      dim: actions
      type: continuous
      max: 2
      min: -2
`;

const REWARD_PY = `import torch
from typing import Dict
import math


def get_reward(data : Dict[str, torch.Tensor]) -> torch.Tensor:
    action = data['actions'][..., 0:1]
    u = torch.clamp(action, -2, 2)

    state = data['states'][..., 0:3]
    costheta = state[..., 0:1]
    sintheta = state[..., 1:2]
    thdot = state[..., 2:3]

    theta = torch.atan2(sintheta, costheta)
    costs = theta ** 2 + 0.1 * thdot ** 2 + 0.001 * (u ** 2)

    return -costs
`;

/** Observation of an angle and speed. */
function observe(th: number, thdot: number): number[] {
  return [Math.cos(th), Math.sin(th), thdot];
}

const sim: Simulator = {
  reset(rng) {
    const th = (rng.next() * 2 - 1) * Math.PI;
    const thdot = rng.next() * 2 - 1;
    return { states: observe(th, thdot) };
  },
  step(inputs, decision) {
    const [c, s, thdot] = inputs['states'] as [number, number, number];
    const th = Math.atan2(s, c);
    const u = clamp(decision['actions']![0]!, -MAX_TORQUE, MAX_TORQUE);
    const newThdot = clamp(thdot + ((3 * G) / (2 * L)) * Math.sin(th) * DT + (3 / (M * L * L)) * u * DT, -MAX_SPEED, MAX_SPEED);
    const newTh = th + newThdot * DT;
    const next = { states: observe(newTh, newThdot) };
    return { next, nextInputs: next };
  },
};

/** Noisy PD near the top plus a weak energy pump; see the module comment. */
const behaviourPolicy: TaskPolicy = (inputs, rng) => {
  const [c, s, thdot] = inputs['states'] as [number, number, number];
  const th = Math.atan2(s, c);
  let u: number;
  if (Math.abs(th) < 0.6) u = -(5 * th + 0.8 * thdot);
  else u = 0.25 * (5 - ((thdot * thdot) / 6 + 5 * c)) * (thdot === 0 ? 1 : Math.sign(thdot)); // weak pump
  return { actions: [clamp(u + 0.7 * rng.normal(), -MAX_TORQUE, MAX_TORQUE)] };
};

/**
 * A strong hand-written controller, for tests and bench baselines: energy pumping
 * (`dE/dt = θ̇ u` for this pendulum, `E = θ̇²/6 + 5 cos θ`, upright `E = 5`) and PD balance near the top.
 */
export const pendulumExpertPolicy: TaskPolicy = (inputs) => {
  const [c, s, thdot] = inputs['states'] as [number, number, number];
  const th = Math.atan2(s, c);
  if (Math.abs(th) < 0.5 && Math.abs(thdot) < 3) return { actions: [clamp(-(12 * th + 2.5 * thdot), -MAX_TORQUE, MAX_TORQUE)] };
  const energy = (thdot * thdot) / 6 + 5 * c;
  return { actions: [clamp(3 * (5 - energy) * (thdot === 0 ? 1 : Math.sign(thdot)), -MAX_TORQUE, MAX_TORQUE)] };
};

/** The pendulum reference task. */
export const pendulumTask = defineTask(
  {
    id: 'pendulum',
    title: 'Pendulum swing-up and balance',
    yaml: YAML,
    rewardPy: REWARD_PY,
    horizon: 200,
    agent: 'actions',
    reward(step: StepValues) {
      const [c, s, thdot] = step['states'] as [number, number, number];
      const u = clamp(step['actions']![0]!, -2, 2);
      const th = Math.atan2(s, c);
      return -(th * th + 0.1 * thdot * thdot + 0.001 * u * u);
    },
    behaviourPolicy,
  },
  () => sim,
);

export { angleNormalize };
