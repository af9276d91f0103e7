/** A small REVIVE YAML (refrigeration control) and its expert function, for tests. */
export const FRIDGE_YAML = `metadata:
  graph:
    action:
    - temperature
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
  - power:
      dim: action
      type: continuous
      max: 1
      min: 0
  - door:
      dim: door_open
      type: category
      values: [0, 1]
  - next_temp:
      dim: next_temperature
      type: continuous
      max: 20
      min: -20
`;

/** The same graph with an expert function for the final state (so the agent alone is learned). */
export const FRIDGE_EXPERT_YAML = `${FRIDGE_YAML}  expert_functions:
    next_temperature:
      'node_function' : 'expert_function.next_temperature'
`;

export const FRIDGE_PY = `import numpy as np


def next_temperature(data):
    return data["temperature"] - data["action"] + 0.1 * data["door_open"]
`;
