/**
 * A lander hovering in the wind, with a category decision (after gymnasium's LunarLander, whose
 * Box2D physics do not run here: the project writes its own simple dynamics). The lander's state
 * is `[x, y, vx, vy]`; each step it fires one of four engines: none (0), left (1: pushes right-to-
 * left), main (2: up) or right (3). Gravity pulls it down by 0.04 a step; the main engine gives
 * 0.08 up, the side engines 0.03 sideways; the wind (an external factor read from data: an AR(1)
 * gust process independent of the policy) pushes it sideways; the ground stops it at `y = 0`.
 * Reward: `-(|x| + |y - 1.5|) - 0.5 (|vx| + |vy|)` after the step, `- 0.02` per engine firing.
 * The behaviour policy fires the main engine with noise when low or falling and the side engines
 * at random, ignoring the wind, so it drifts off sideways.
 */
import { clamp, defineTask, type Simulator, type StepValues, type TaskPolicy } from './common';

const GRAVITY = 0.04;
const MAIN = 0.08;
const SIDE = 0.03;
const DRAG = 0.95;
const TARGET_Y = 1.5;
const X_MAX = 2;
const Y_MAX = 3;
const V_MAX = 1;
const WIND_MAX = 0.05;
const FUEL = 0.02;

const YAML = `metadata:
  graph:
    engine:
    - lander
    - wind
    next_lander:
    - lander
    - engine
    - wind
  columns:
  - pos_x:
      dim: lander
      type: continuous
      max: 2
      min: -2
  - pos_y:
      dim: lander
      type: continuous
      max: 3
      min: 0
  - vel_x:
      dim: lander
      type: continuous
      max: 1
      min: -1
  - vel_y:
      dim: lander
      type: continuous
      max: 1
      min: -1
  - fired_engine:
      dim: engine
      type: category
      values: [0, 1, 2, 3]
  - wind_speed:
      dim: wind
      type: continuous
      max: 0.05
      min: -0.05
`;

const REWARD_PY = `def get_reward(data):
    '''Stay at (0, 1.5), slowly, with little fuel (numpy or torch, [batch, dim] original units).'''
    x = data['next_lander'][..., 0:1]
    y = data['next_lander'][..., 1:2]
    vx = data['next_lander'][..., 2:3]
    vy = data['next_lander'][..., 3:4]
    fired = (data['engine'][..., 0:1] != 0) * 1.0
    return - (abs(x) + abs(y - 1.5)) - 0.5 * (abs(vx) + abs(vy)) - 0.02 * fired
`;

const sim: Simulator = {
  reset(rng) {
    const x = (rng.next() * 2 - 1) * 1;
    const y = 0.5 + rng.next() * 2;
    return { lander: [x, y, 0, 0], wind: [clamp(0.02 * rng.normal(), -WIND_MAX, WIND_MAX)] };
  },
  step(inputs, decision, rng) {
    const [x, y, vx, vy] = inputs['lander'] as [number, number, number, number];
    const wind = inputs['wind']![0]!;
    const engine = clamp(Math.round(decision['engine']![0]!), 0, 3);
    let nvx = clamp(DRAG * vx + wind + (engine === 1 ? -SIDE : engine === 3 ? SIDE : 0) + 0.005 * rng.normal(), -V_MAX, V_MAX);
    let nvy = clamp(DRAG * vy - GRAVITY + (engine === 2 ? MAIN : 0) + 0.005 * rng.normal(), -V_MAX, V_MAX);
    const nx = clamp(x + nvx, -X_MAX, X_MAX);
    let ny = y + nvy;
    if (ny <= 0) {
      ny = 0;
      nvy = 0;
    } else if (ny >= Y_MAX) {
      ny = Y_MAX;
      nvy = Math.min(0, nvy);
    }
    if (Math.abs(nx) === X_MAX) nvx = 0;
    const nextWind = clamp(0.9 * wind + 0.01 * rng.normal(), -WIND_MAX, WIND_MAX);
    const next = [nx, ny, nvx, nvy];
    return { next: { lander: next }, nextInputs: { lander: next, wind: [nextWind] }, extra: { engine: [engine] } };
  },
};

/** Noisy: the main engine when low or falling (most of the time), side engines at random; ignores x and the wind. */
const behaviourPolicy: TaskPolicy = (inputs, rng) => {
  const [, y, , vy] = inputs['lander'] as [number, number, number, number];
  const u = rng.next();
  const wantsUp = y < 1.3 || vy < -0.08;
  let engine = 0;
  if (wantsUp && u < 0.75) engine = 2;
  else if (u < 0.9) engine = 0;
  else engine = rng.next() < 0.5 ? 1 : 3;
  return { engine: [engine] };
};

/** A PD controller on both axes, firing the engine whose correction is most needed (the wind cancelled). */
export const hoverExpertPolicy: TaskPolicy = (inputs) => {
  const [x, y, vx, vy] = inputs['lander'] as [number, number, number, number];
  const wind = inputs['wind']![0]!;
  // wanted velocity changes of the step
  const ay = -0.25 * (y - TARGET_Y) - 0.9 * vy + GRAVITY - (1 - DRAG) * vy;
  const ax = -0.15 * x - 0.8 * vx - wind;
  if (ay > MAIN / 2) return { engine: [2] };
  if (ax < -SIDE / 2) return { engine: [1] };
  if (ax > SIDE / 2) return { engine: [3] };
  return { engine: [0] };
};

/** The hover reference task (category decision). */
export const hoverTask = defineTask(
  {
    id: 'hover',
    title: 'Lander hovering in the wind with a category engine choice',
    yaml: YAML,
    rewardPy: REWARD_PY,
    horizon: 150,
    agent: 'engine',
    reward(step: StepValues) {
      const [x, y, vx, vy] = step['next_lander'] as [number, number, number, number];
      return -(Math.abs(x) + Math.abs(y - TARGET_Y)) - 0.5 * (Math.abs(vx) + Math.abs(vy)) - (step['engine']![0] !== 0 ? FUEL : 0);
    },
    behaviourPolicy,
  },
  () => sim,
);
