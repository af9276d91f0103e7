/**
 * The comparison of an analysis report (issue 17 item 7): the two decisions' rewards against
 * the data as logged, per-field means, the scenario's measures, and the real totals projected
 * by the measures they move with. Computed from what the decision deductions stored
 * ({@link DeductionTallySummary}); isomorphic, so report renderers can rebuild it.
 */
import { REAL_TOTAL_MEASURES, SCENARIO_MEASURE_KEYS, projectRealTotal, relativeChange, type DeductionTallySummary, type MeasureScenario } from './measures';

/** What a decision deduction stored besides its return (`result.tally`). */
export interface DecisionTally {
  policy: DeductionTallySummary;
  behaviour: DeductionTallySummary;
  logged: DeductionTallySummary;
  /** Field names of each node of the graph. */
  fieldNames: Record<string, string[]>;
}

/** The rewards of one decision, per step. */
export interface ReportRewardRow {
  decided: number | null;
  /** The data's own decisions in the environment, same windows. */
  behaviour: number | null;
  /** The reward function on the logged rows of the same windows. */
  logged: number | null;
  /** `(decided − logged) / |logged|`. */
  changeOverLogged: number | null;
}

/** One field's means. */
export interface ReportFieldRow {
  node: string;
  field: string;
  a: number | null;
  b: number | null;
  /** Decision A's logged data (B's when A's has none). */
  logged: number | null;
}

/** One scenario measure: means per step, and each decision's change over its logged data. */
export interface ReportMeasureRow {
  key: string;
  a: number | null;
  b: number | null;
  logged: number | null;
  changeA: number | null;
  changeB: number | null;
}

/** A real total as entered and what each decision would make of it. */
export interface ReportRealTotalRow {
  total: 'revenue' | 'orders' | 'cost';
  real: string;
  /** The measure it moves with. */
  measure: string;
  projectedA: number | null;
  projectedB: number | null;
}

export interface ReportComparison {
  /** Whether both decisions started from the same data (else each is compared with its own logged data). */
  sameData: boolean;
  rewards: { a: ReportRewardRow; b: ReportRewardRow };
  fields: ReportFieldRow[];
  /** The scenario's measures; null for a general report, or (with `measuresMissing`) when the graph lacks the scenario's nodes. */
  measures: { scenario: MeasureScenario; rows: ReportMeasureRow[] } | null;
  measuresMissing: boolean;
  realTotals: ReportRealTotalRow[];
}

const rewardRow = (t: DecisionTally): ReportRewardRow => ({
  decided: t.policy.rewardPerStep,
  behaviour: t.behaviour.rewardPerStep,
  logged: t.logged.rewardPerStep,
  changeOverLogged: relativeChange(t.policy.rewardPerStep, t.logged.rewardPerStep),
});

/**
 * Compares two decisions of a report of `type` with the real totals entered. `sameData`: both
 * decisions rolled from the same initial dataset.
 */
export function compareDecisions(
  type: 'coupon' | 'electricity' | 'general',
  real: { revenue: string; orders: string; cost: string },
  a: DecisionTally,
  b: DecisionTally,
  sameData: boolean,
): ReportComparison {
  const fields: ReportFieldRow[] = [];
  const nodes = [...new Set([...Object.keys(a.policy.fields), ...Object.keys(b.policy.fields)])];
  for (const node of nodes) {
    const names = a.fieldNames[node] ?? b.fieldNames[node] ?? [];
    const width = Math.max(a.policy.fields[node]?.length ?? 0, b.policy.fields[node]?.length ?? 0);
    for (let i = 0; i < width; i++) {
      fields.push({
        node,
        field: names[i] ?? `${node}[${i}]`,
        a: a.policy.fields[node]?.[i] ?? null,
        b: b.policy.fields[node]?.[i] ?? null,
        logged: a.logged.fields[node]?.[i] ?? b.logged.fields[node]?.[i] ?? null,
      });
    }
  }
  let measures: ReportComparison['measures'] = null;
  let measuresMissing = false;
  const realTotals: ReportRealTotalRow[] = [];
  if (type !== 'general') {
    const ma = a.policy.measures[type];
    const mb = b.policy.measures[type];
    const la = a.logged.measures[type];
    const lb = b.logged.measures[type];
    if (!ma || !mb || !la || !lb) measuresMissing = true;
    else {
      measures = {
        scenario: type,
        rows: SCENARIO_MEASURE_KEYS[type].map((key) => ({
          key,
          a: ma[key] ?? null,
          b: mb[key] ?? null,
          logged: la[key] ?? null,
          changeA: relativeChange(ma[key], la[key]),
          changeB: relativeChange(mb[key], lb[key]),
        })),
      };
      for (const [total, measure] of Object.entries(REAL_TOTAL_MEASURES[type]) as Array<['revenue' | 'orders' | 'cost', string]>) {
        realTotals.push({ total, real: real[total], measure, projectedA: projectRealTotal(real[total], ma[measure], la[measure]), projectedB: projectRealTotal(real[total], mb[measure], lb[measure]) });
      }
    }
  }
  return { sameData, rewards: { a: rewardRow(a), b: rewardRow(b) }, fields, measures, measuresMissing, realTotals };
}

/** A stored `result.tally` read back, or null when the deduction ran before tallies were kept. */
export function decisionTallyOf(result: unknown): DecisionTally | null {
  const t = (result as { tally?: Partial<DecisionTally> } | null)?.tally;
  if (!t || typeof t !== 'object' || !t.policy || !t.behaviour || !t.logged) return null;
  return { policy: t.policy, behaviour: t.behaviour, logged: t.logged, fieldNames: t.fieldNames ?? {} };
}
