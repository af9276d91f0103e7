/**
 * What a decision deduction measured, beyond its return (issue 17 item 7): per-field means of
 * the graph's nodes and the scenario measures of the coupon and electricity reports, for the
 * policy's rollout, the data's own behaviour in the environment, and the data as logged (the
 * same windows' rows of the initial dataset). The one place these measures are computed: the
 * decision job tallies them (`server/src/modules/modelling/engine/kinds.ts`), the reports module
 * compares them (`server/src/modules/reports/service.ts`), and report renderers (the template
 * plugins) read the stored summaries or call {@link scenarioMeasuresOfBatch} on rows of their own.
 *
 * Every measure is a mean per step (one row of one rollout window: a store-day for the coupon
 * scenario, a room-quarter-hour for electricity), in original units.
 */

/** A batch as the reward function gets it: per node `[rows, dim]` values in original units. */
export type MeasureBatch = Record<string, { data: ArrayLike<number>; shape: readonly number[] }>;

/** Scenarios with measures of their own (the `general` report has none). */
export const MEASURE_SCENARIOS = ['coupon', 'electricity'] as const;
export type MeasureScenario = (typeof MEASURE_SCENARIOS)[number];

/**
 * The coupon template's economics (`core/learning/src/tasks/inventory.ts`, its `reward.py`):
 * node `decision` = [price, order quantity], `sales` = [units sold], `stock` and `next_stock` =
 * [stock level]; profit = price · sales − 6 · order − 0.2 · next stock. The price levels 8–14
 * are the coupon's depth: the full price is 14, a lower price is a coupon.
 */
export const COUPON_ECONOMICS = { unitCost: 6, holdingCost: 0.2, fullPrice: 14 } as const;

/**
 * The electricity template's plant (`core/learning/src/tasks/thermal.ts`): node `action` =
 * [cooling power, kW], `next_temperature` = [°C]; one step is a quarter-hour; the target is
 * −2 °C; the reward charges 0.05 per kW of power. A step counts as a temperature violation when
 * the next temperature is more than `toleranceC` away from the target.
 */
export const ELECTRICITY_PLANT = { stepHours: 0.25, targetC: -2, toleranceC: 1, powerPenalty: 0.05 } as const;

/** Measures of each scenario, in display order. */
export const SCENARIO_MEASURE_KEYS = {
  /**
   * revenue = price · units sold; coupon cost = (full price − price) · units sold; redemption =
   * share of steps that sold under a coupon; cost = purchase + holding; profit = revenue − cost;
   * sell-through = units sold / (stock + order).
   */
  coupon: ['revenue', 'couponCost', 'redemption', 'unitsSold', 'cost', 'profit', 'sellThrough', 'price'],
  /** energy (kWh), power cost in reward units, share of steps outside the band, mean |T − target|, mean temperature. */
  electricity: ['energy', 'powerCost', 'violations', 'deviation', 'temperature'],
} as const satisfies Record<MeasureScenario, readonly string[]>;
export type CouponMeasure = (typeof SCENARIO_MEASURE_KEYS.coupon)[number];
export type ElectricityMeasure = (typeof SCENARIO_MEASURE_KEYS.electricity)[number];

/** Running sums of one measure set. */
export interface MeasureSums {
  sums: Record<string, number>;
  counts: Record<string, number>;
}

const col = (b: MeasureBatch, node: string, c: number): ((row: number) => number) | null => {
  const x = b[node];
  if (!x) return null;
  const dim = x.shape[1] ?? 1;
  if (c >= dim) return null;
  return (row) => Number(x.data[row * dim + c]);
};
const rowsOf = (b: MeasureBatch, node: string) => b[node]?.shape[0] ?? 0;

/**
 * Adds one batch's rows to the sums of a scenario's measures. Returns false (adding nothing)
 * when the batch lacks a node or field the scenario reads, i.e. the graph is not the scenario's.
 */
export function scenarioMeasuresOfBatch(scenario: MeasureScenario, batch: MeasureBatch, into: MeasureSums): boolean {
  const add = (key: string, v: number) => {
    if (!Number.isFinite(v)) return;
    into.sums[key] = (into.sums[key] ?? 0) + v;
    into.counts[key] = (into.counts[key] ?? 0) + 1;
  };
  if (scenario === 'coupon') {
    const price = col(batch, 'decision', 0);
    const order = col(batch, 'decision', 1);
    const sales = col(batch, 'sales', 0);
    const next = col(batch, 'next_stock', 0);
    const stock = col(batch, 'stock', 0);
    if (!price || !order || !sales || !next) return false;
    const n = rowsOf(batch, 'decision');
    for (let r = 0; r < n; r++) {
      const revenue = price(r) * sales(r);
      const cost = COUPON_ECONOMICS.unitCost * order(r) + COUPON_ECONOMICS.holdingCost * next(r);
      const couponed = price(r) < COUPON_ECONOMICS.fullPrice;
      add('revenue', revenue);
      add('couponCost', Math.max(0, COUPON_ECONOMICS.fullPrice - price(r)) * sales(r));
      add('redemption', couponed && sales(r) > 0 ? 1 : 0);
      add('cost', cost);
      add('profit', revenue - cost);
      add('unitsSold', sales(r));
      add('price', price(r));
      if (stock) {
        const available = stock(r) + order(r);
        if (available > 0) add('sellThrough', sales(r) / available);
      }
    }
    return true;
  }
  const power = col(batch, 'action', 0);
  const temp = col(batch, 'next_temperature', 0);
  if (!power || !temp) return false;
  const n = rowsOf(batch, 'action');
  for (let r = 0; r < n; r++) {
    const p = power(r);
    const t = temp(r);
    add('energy', p * ELECTRICITY_PLANT.stepHours);
    add('powerCost', ELECTRICITY_PLANT.powerPenalty * p);
    add('violations', Math.abs(t - ELECTRICITY_PLANT.targetC) > ELECTRICITY_PLANT.toleranceC ? 1 : 0);
    add('deviation', Math.abs(t - ELECTRICITY_PLANT.targetC));
    add('temperature', t);
  }
  return true;
}

/** Means of the summed measures (null where nothing was counted), in the scenario's order. */
export function measureMeans(scenario: MeasureScenario, sums: MeasureSums): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const key of SCENARIO_MEASURE_KEYS[scenario]) out[key] = sums.counts[key] ? sums.sums[key]! / sums.counts[key]! : null;
  return out;
}

/** What one rollout (or the logged data) measured: the stored summary. */
export interface DeductionTallySummary {
  /** Rows counted (steps × windows). */
  rows: number;
  /** Mean reward per step; null when no reward was measured. */
  rewardPerStep: number | null;
  /** Per node, the mean of each field (original units, in the node's field order). */
  fields: Record<string, Array<number | null>>;
  /** Per scenario whose nodes the graph has: its measures' means. */
  measures: Partial<Record<MeasureScenario, Record<string, number | null>>>;
}

/**
 * Tallies the batches of one rollout (each step's decoded batch and its rewards) into per-field
 * means, the mean reward per step and the scenario measures.
 */
export class DeductionTally {
  private rows = 0;
  private rewardSum = 0;
  private rewardCount = 0;
  private readonly fieldSums = new Map<string, { sum: number[]; n: number[] }>();
  private readonly scenarios = new Map<MeasureScenario, MeasureSums>();
  private readonly missing = new Set<MeasureScenario>();

  /** Adds one step's batch (and its rewards, `[rows]`, when measured). */
  add(batch: MeasureBatch, rewards?: ArrayLike<number>): void {
    let rows = 0;
    for (const [node, x] of Object.entries(batch)) {
      const n = x.shape[0] ?? 0;
      const dim = x.shape[1] ?? 1;
      rows = Math.max(rows, n);
      const s = this.fieldSums.get(node) ?? { sum: new Array<number>(dim).fill(0), n: new Array<number>(dim).fill(0) };
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < dim; c++) {
          const v = Number(x.data[r * dim + c]);
          if (!Number.isFinite(v)) continue;
          s.sum[c] = (s.sum[c] ?? 0) + v;
          s.n[c] = (s.n[c] ?? 0) + 1;
        }
      }
      this.fieldSums.set(node, s);
    }
    this.rows += rows;
    if (rewards) {
      for (let i = 0; i < rewards.length; i++) {
        const v = Number(rewards[i]);
        if (!Number.isFinite(v)) continue;
        this.rewardSum += v;
        this.rewardCount += 1;
      }
    }
    for (const scenario of MEASURE_SCENARIOS) {
      if (this.missing.has(scenario)) continue;
      const sums = this.scenarios.get(scenario) ?? { sums: {}, counts: {} };
      if (scenarioMeasuresOfBatch(scenario, batch, sums)) this.scenarios.set(scenario, sums);
      else this.missing.add(scenario);
    }
  }

  /** The summary to store. */
  summary(): DeductionTallySummary {
    const fields: DeductionTallySummary['fields'] = {};
    for (const [node, s] of this.fieldSums) fields[node] = s.sum.map((v, i) => (s.n[i] ? v / s.n[i]! : null));
    const measures: DeductionTallySummary['measures'] = {};
    for (const [scenario, sums] of this.scenarios) if (!this.missing.has(scenario)) measures[scenario] = measureMeans(scenario, sums);
    return { rows: this.rows, rewardPerStep: this.rewardCount ? this.rewardSum / this.rewardCount : null, fields, measures };
  }
}

/**
 * `(decided − logged) / |logged|`: the relative change from the logged data, positive when the
 * decided value is higher (also for negative values such as a cost-like reward); null when
 * either is missing or the logged value is 0.
 */
export function relativeChange(decided: number | null | undefined, logged: number | null | undefined): number | null {
  if (decided === null || decided === undefined || logged === null || logged === undefined || logged === 0) return null;
  return (decided - logged) / Math.abs(logged);
}

/**
 * Which scenario measure each real total of a report moves with: the entered total scaled by
 * the decided measure over the logged one gives the total the decision would have made of the
 * same period (a projection, shown as such). Coupon: revenue, orders = units sold, coupon cost;
 * electricity: the power purchase cost moves with the energy. `general` has none.
 */
export const REAL_TOTAL_MEASURES: Record<MeasureScenario, Partial<Record<'revenue' | 'orders' | 'cost', string>>> = {
  coupon: { revenue: 'revenue', orders: 'unitsSold', cost: 'couponCost' },
  electricity: { cost: 'energy' },
};

/** `real · (1 + relativeChange(decided, logged))`, rounded to cents; null when it cannot be computed (no logged value, or 0). */
export function projectRealTotal(real: string | number, decided: number | null | undefined, logged: number | null | undefined): number | null {
  const total = Number(real);
  const change = relativeChange(decided, logged);
  if (!Number.isFinite(total) || change === null) return null;
  return Math.round(total * (1 + change) * 100) / 100;
}
