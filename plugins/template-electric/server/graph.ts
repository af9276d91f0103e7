/**
 * The electric template's decision graph (REVIVE YAML) and reward (`reward.py`): those of the
 * learning engine's `thermalTask`. A template plugin may not import the engine (lint rule
 * `decisio/template-imports`), so `server/src/modules/templates/templates.test.ts` checks that the
 * parsed graph (nodes, roles, edges, fields with types and bounds) and the reward text stay equal.
 */

/** Cold room: the agent sets the cooling power from the temperature and the door state. */
export const ELECTRIC_GRAPH_YAML = `metadata:
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

/** Target temperature of the reward, °C. */
export const TARGET_TEMPERATURE = -2;
/** Cost of one unit of cooling power in the reward. */
export const POWER_COST = 0.05;

/** `-|next_temperature + 2| - 0.05 · power`, the same as {@link electricReward}. */
export const ELECTRIC_REWARD_PY = `def get_reward(data):
    '''
        data: every node of the graph and next_temperature, [batch, dim], original units.
        Works on numpy arrays and on torch tensors (REVIVE).
    '''
    target_temperature = -2
    reward_temperature = - abs(data['next_temperature'][..., 0:1] - target_temperature)
    reward_power = - 0.05 * data['action'][..., 0:1]
    return reward_temperature + reward_power
`;

/** The reward of one step in TypeScript (mirrors {@link ELECTRIC_REWARD_PY}). */
export function electricReward(nextTemperature: number, power: number): number {
  return -Math.abs(nextTemperature - TARGET_TEMPERATURE) - POWER_COST * power;
}
