/**
 * The coupon template's decision graph (REVIVE YAML) and reward (`reward.py`): those of the
 * learning engine's `inventoryTask`. A template plugin may not import the engine (lint rule
 * `decisio/template-imports`), so `server/src/modules/templates/templates.test.ts` checks that the
 * parsed graph (nodes, roles, edges, fields with types and bounds) and the reward text stay equal.
 */

/**
 * A store: the agent picks the price level and the order quantity from the stock and the
 * season; the sales answer the decision (an environment node), then the next stock follows.
 */
export const COUPON_GRAPH_YAML = `metadata:
  graph:
    decision:
    - stock
    - season
    sales:
    - stock
    - decision
    - season
    next_stock:
    - stock
    - decision
    - sales
  columns:
  - stock_level:
      dim: stock
      type: continuous
      max: 100
      min: 0
  - season_index:
      dim: season
      type: continuous
      max: 1.5
      min: -1.5
  - price:
      dim: decision
      type: category
      values: [8, 10, 12, 14]
  - order_quantity:
      dim: decision
      type: discrete
      max: 40
      min: 0
      num: 5
  - units_sold:
      dim: sales
      type: continuous
      max: 80
      min: 0
`;

/** Purchase cost of one unit and holding cost of one unit left over. */
export const UNIT_COST = 6;
export const HOLDING_COST = 0.2;

/** Profit of the period: `price · sales - 6 · order - 0.2 · next_stock` (same as {@link couponReward}). */
export const COUPON_REWARD_PY = `def get_reward(data):
    '''Profit of the period: revenue - purchase cost - holding cost (numpy or torch).'''
    price = data['decision'][..., 0:1]
    order = data['decision'][..., 1:2]
    sales = data['sales'][..., 0:1]
    next_stock = data['next_stock'][..., 0:1]
    return price * sales - 6 * order - 0.2 * next_stock
`;

/** The reward of one period in TypeScript (mirrors {@link COUPON_REWARD_PY}). */
export function couponReward(price: number, order: number, sales: number, nextStock: number): number {
  return price * sales - UNIT_COST * order - HOLDING_COST * nextStock;
}
