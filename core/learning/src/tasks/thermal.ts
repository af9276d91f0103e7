/**
 * A thermal control loop (refrigeration-style, after REVIVE's refrigerator example): the
 * temperature inside a cold room drifts towards the ambient 20 °C, faster while the door is
 * open; a cooling power in [0, 10] pulls it down. The door is an external factor: a Markov
 * chain (opens with probability 0.08 per step, stays open 3 steps on average) read from data
 * at every step, independent of the policy. Target temperature -2 °C; the reward is
 * `-|next_temperature + 2| - 0.05 · power`. The behaviour policy is a noisy, weak
 * proportional controller that ignores the door, so it runs warm after each opening.
 */
import { clamp, defineTask, type Simulator, type StepValues, type TaskPolicy } from './common';

const AMBIENT = 20;
const TARGET = -2;
const K_WALL = 0.02;
const K_DOOR = 0.15;
const K_POWER = 0.6;
const P_OPEN = 0.08;
const P_CLOSE = 0.35;

const YAML = `metadata:
  graph:
    action:
    - temperature
    - door_open
    next_temperature:
    - action
    - temperature
    - door_open
  columns:
  - obs_temp:
      dim: temperature
      type: continuous
      max: 20
      min: -20
  - power_action:
      dim: action
      type: continuous
      max: 10
      min: 0
  - factor_door_state:
      dim: door_open
      type: category
      values: [0, 1]
`;

const REWARD_PY = `def get_reward(data):
    '''
        data: every node of the graph and next_temperature, [batch, dim], original units.
        Works on numpy arrays and on torch tensors (REVIVE).
    '''
    target_temperature = -2
    reward_temperature = - abs(data['next_temperature'][..., 0:1] - target_temperature)
    reward_power = - 0.05 * data['action'][..., 0:1]
    return reward_temperature + reward_power
`;

const sim: Simulator = {
  reset(rng) {
    return { temperature: [TARGET + (rng.next() * 2 - 1) * 6], door_open: [0] };
  },
  step(inputs, decision, rng) {
    const t = inputs['temperature']![0]!;
    const door = inputs['door_open']![0]!;
    const power = clamp(decision['action']![0]!, 0, 10);
    const nt = clamp(t + K_WALL * (AMBIENT - t) + K_DOOR * door * (AMBIENT - t) - K_POWER * power + 0.1 * rng.normal(), -20, 20);
    const nextDoor = door ? (rng.next() < P_CLOSE ? 0 : 1) : rng.next() < P_OPEN ? 1 : 0;
    return { next: { temperature: [nt] }, nextInputs: { temperature: [nt], door_open: [nextDoor] } };
  },
};

/** Noisy weak P controller that ignores the door. */
const behaviourPolicy: TaskPolicy = (inputs, rng) => {
  const t = inputs['temperature']![0]!;
  return { action: [clamp(0.6 + 0.4 * (t - TARGET) + 0.8 * rng.normal(), 0, 10)] };
};

/** A good controller: cancels the expected drift, door included. */
export const thermalExpertPolicy: TaskPolicy = (inputs) => {
  const t = inputs['temperature']![0]!;
  const door = inputs['door_open']![0]!;
  const drift = K_WALL * (AMBIENT - t) + K_DOOR * door * (AMBIENT - t);
  return { action: [clamp((drift + (t - TARGET)) / K_POWER, 0, 10)] };
};

/** The thermal control reference task. */
export const thermalTask = defineTask(
  {
    id: 'thermal',
    title: 'Cold room temperature control with door openings',
    yaml: YAML,
    rewardPy: REWARD_PY,
    horizon: 200,
    agent: 'action',
    reward(step: StepValues) {
      return -Math.abs(step['next_temperature']![0]! - TARGET) - 0.05 * step['action']![0]!;
    },
    behaviourPolicy,
  },
  () => sim,
);
