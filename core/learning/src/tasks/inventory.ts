/**
 * An inventory and pricing business process with a discrete decision. Each period the agent
 * picks a price (category: 8, 10, 12, 14) and an order quantity (discrete ordered: 0, 10, ...,
 * 40). Demand is Poisson with a rate that rises with the season (an external factor read from
 * data: a seasonal wave with noise) and falls with the price; sales are capped by the stock
 * plus the order; left-over stock is capped at 100. Reward (profit):
 * `price · sales - 6 · order - 0.2 · next_stock`. The behaviour policy prices mostly low
 * and orders up to a fixed level with noise, ignoring the season.
 */
import { Rng } from '../data/split';
import { clamp, defineTask, type Simulator, type StepValues, type TaskPolicy } from './common';

const PRICES = [8, 10, 12, 14];
const ORDER_STEP = 10;
const ORDER_MAX = 40;
const UNIT_COST = 6;
const HOLDING = 0.2;
const CAPACITY = 100;
const PERIOD = 50;

const YAML = `metadata:
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

const REWARD_PY = `def get_reward(data):
    '''Profit of the period: revenue - purchase cost - holding cost (numpy or torch).'''
    price = data['decision'][..., 0:1]
    order = data['decision'][..., 1:2]
    sales = data['sales'][..., 0:1]
    next_stock = data['next_stock'][..., 0:1]
    return price * sales - 6 * order - 0.2 * next_stock
`;

function poisson(lambda: number, rng: Rng): number {
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * rng.normal()));
  const l = Math.exp(-lambda);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rng.next();
  } while (p > l);
  return k - 1;
}

/** Expected demand at a price and season. */
export function demandRate(price: number, season: number): number {
  return 20 * (1 + 0.5 * season) * Math.exp((-1.5 * (price - 10)) / 10);
}

/** A fresh simulator; the season's phase and the period count live in it. */
function makeSim(): Simulator {
  let phase = 0;
  let t = 0;
  const seasonAt = (step: number, rng: Rng) => Math.sin((2 * Math.PI * (step + phase)) / PERIOD) + 0.1 * rng.normal();
  return {
  reset(rng) {
    phase = rng.int(PERIOD);
    t = 0;
    return { stock: [Math.round(rng.next() * 40)], season: [seasonAt(0, rng)] };
  },
  step(inputs, decision, rng) {
    const stock = inputs['stock']![0]!;
    const season = inputs['season']![0]!;
    const price = PRICES.reduce((best, p) => (Math.abs(p - decision['decision']![0]!) < Math.abs(best - decision['decision']![0]!) ? p : best), PRICES[0]!);
    const order = clamp(Math.round(decision['decision']![1]! / ORDER_STEP) * ORDER_STEP, 0, ORDER_MAX);
    const demand = poisson(demandRate(price, season), rng);
    const sales = Math.min(stock + order, demand);
    const next = Math.min(CAPACITY, stock + order - sales);
    t += 1;
    return { next: { stock: [next] }, nextInputs: { stock: [next], season: [seasonAt(t, rng)] }, extra: { sales: [sales], decision: [price, order] } };
  },
  };
}

/** Low prices, fixed order-up-to level with noise; ignores the season. */
const behaviourPolicy: TaskPolicy = (inputs, rng) => {
  const stock = inputs['stock']![0]!;
  const u = rng.next();
  const price = u < 0.15 ? 8 : u < 0.7 ? 10 : u < 0.9 ? 12 : 14;
  const order = clamp(Math.round((30 - stock + 8 * rng.normal()) / ORDER_STEP) * ORDER_STEP, 0, ORDER_MAX);
  return { decision: [price, order] };
};

/** A good heuristic: a higher price and an order-up-to level that follows the season's demand. */
export const inventoryExpertPolicy: TaskPolicy = (inputs) => {
  const stock = inputs['stock']![0]!;
  const season = inputs['season']![0]!;
  const price = 12;
  const target = demandRate(price, season) * 1.1;
  const order = clamp(Math.round((target - stock) / ORDER_STEP) * ORDER_STEP, 0, ORDER_MAX);
  return { decision: [price, order] };
};

/** The inventory and pricing reference task. */
export const inventoryTask = defineTask(
  {
    id: 'inventory',
    title: 'Inventory and pricing with a discrete decision',
    yaml: YAML,
    rewardPy: REWARD_PY,
    horizon: 100,
    agent: 'decision',
    reward(step: StepValues) {
      const [price, order] = step['decision'] as [number, number];
      return price * step['sales']![0]! - UNIT_COST * order - HOLDING * step['next_stock']![0]!;
    },
    behaviourPolicy,
  },
  makeSim,
);
