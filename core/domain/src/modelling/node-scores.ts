/**
 * Per-node validation scores of an environment training (issue 17 item 4): what the training
 * measured on its held-out trajectories when it ended, kept with the record
 * (`simulators.node_scores`) and answered by `trainSimulator/get|list` as `nodeScores`.
 */

/** One node's figures. Errors are in the scaled network space ([-1, 1] per field), so nodes compare. */
export interface NodeScore {
  /** Mean absolute error of the node's predicted fields; null when not measurable. */
  mae: number | null;
  mse: number | null;
  /** Coefficient of determination (1 perfect, 0 as good as the mean, below 0 worse); null when the data does not vary. */
  r2: number | null;
  /** The spec's step score of the node, `100 * clip((ln 2 - ln MAE) / 15, 0, 1)`. */
  score: number | null;
  /** Values compared (rows × fields over every rollout step). */
  count: number;
}

/** The scores of one environment training. */
export interface EnvironmentNodeScores {
  /** Per learned node, by node name. */
  nodes: Record<string, NodeScore>;
  /** Overall figures: the mean of the node MAEs and its step score (the record's `score`). */
  mae: number | null;
  score: number | null;
  /** Rollout steps per window and windows measured (held-out trajectories, the data's own decisions). */
  horizon: number;
  windows: number;
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The stored form of an evaluation report (`evaluateVenv` of `@decisio/learning`): non-finite
 * figures become null (JSON has no NaN), nodes keep their names.
 */
export function environmentNodeScores(report: {
  nodes: Record<string, { mae: number; mse: number; count: number; score: number; r2?: number }>;
  mae: number;
  score: number;
  horizon: number;
  windows: number;
}): EnvironmentNodeScores {
  const nodes: Record<string, NodeScore> = {};
  for (const [name, e] of Object.entries(report.nodes)) nodes[name] = { mae: finite(e.mae), mse: finite(e.mse), r2: finite(e.r2), score: finite(e.score), count: e.count };
  return { nodes, mae: finite(report.mae), score: finite(report.score), horizon: report.horizon, windows: report.windows };
}

/** The nodes of stored scores, worst score first (where to look first); nodes without a score last. */
export function nodeScoreRows(scores: EnvironmentNodeScores): Array<{ node: string } & NodeScore> {
  return Object.entries(scores.nodes)
    .map(([node, s]) => ({ node, ...s }))
    .sort((a, b) => (a.score ?? Infinity) - (b.score ?? Infinity) || a.node.localeCompare(b.node));
}
