/**
 * What of REVIVE 0.9.x's YAML the engine does not run. The graph document keeps every REVIVE
 * key (the editor round-trips them), but a training must not silently ignore one that changes
 * what REVIVE would learn: those are refused here, by name, before any data is read. The
 * compatibility matrix of the README lists what works and what is refused.
 */
import type { DecisionGraph, GraphNode } from '@decisio/domain';
import { LearningError } from '../errors';

/** One REVIVE feature a graph uses that the engine does not run. */
export interface UnsupportedFeature {
  /** The YAML key as REVIVE writes it, e.g. `nodes.next_obs.freeze` or `custom_nodes.engine_action`. */
  feature: string;
  /** Why, in English (the error's message has both languages). */
  reason: string;
}

/** Values of `nodes.<X>.loss_type` that mean the likelihood loss every learned node is trained with. */
export const LIKELIHOOD_LOSS_TYPES: readonly string[] = ['nll', 'log_prob', 'likelihood'];

const truthy = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== 'false';

/**
 * Every REVIVE feature of `graph` that training would not honour: per-node `traj_id` and
 * `freeze`, a `loss_type` other than the likelihood, and `custom_nodes` (a user torch network
 * class). Empty when the graph trains as REVIVE would.
 */
export function unsupportedReviveFeatures(graph: DecisionGraph): UnsupportedFeature[] {
  const out: UnsupportedFeature[] = [];
  for (const n of graph.nodes) {
    const o = n.options ?? {};
    if (truthy(o['traj_id'])) out.push({ feature: `nodes.${n.name}.traj_id`, reason: 'the trajectory id as a node input is not implemented' });
    if (truthy(o['freeze'])) out.push({ feature: `nodes.${n.name}.freeze`, reason: 'frozen nodes need weights from an earlier REVIVE model, which cannot be loaded' });
    const loss = o['loss_type'];
    if (loss !== undefined && loss !== null && !LIKELIHOOD_LOSS_TYPES.includes(String(loss)))
      out.push({ feature: `nodes.${n.name}.loss_type: ${String(loss)}`, reason: `nodes are trained by likelihood (${LIKELIHOOD_LOSS_TYPES.join(', ')})` });
    if (n.network?.kind === 'python')
      out.push({ feature: `custom_nodes.${n.name}`, reason: `the network class ${n.network.className} of ${n.network.file} (torch) cannot run in the engine; remove it to learn an MLP` });
  }
  return out;
}

/**
 * Throws `LearningError('revive.unsupported')` naming the first feature of
 * {@link unsupportedReviveFeatures} and the others (their reasons in `details.features`).
 */
export function assertReviveSupported(graph: DecisionGraph): void {
  const found = unsupportedReviveFeatures(graph);
  if (found.length === 0) return;
  const first = found[0]!;
  throw new LearningError(
    'revive.unsupported',
    { feature: first.feature, more: found.length > 1 ? found.slice(1).map((f) => f.feature).join(', ') : '-' },
    { features: found },
  );
}

/** REVIVE's step node: the step index within the trajectory (0, 1, ...), `nodes.<X>.step_input`. */
export const STEP_NODE = 'step_node_';

/**
 * The graph with REVIVE's step node wired in: every node with `step_input: true` reads
 * {@link STEP_NODE} (one column, the step index within its trajectory) as its last input. REVIVE
 * carries the index as a state advanced by a function (`step_node_ + 1`); along a rollout
 * window that stays inside its trajectory this equals the data's own index at the same row, so
 * the node is an external factor read from the data (built by `buildDataset` when the data
 * lacks it). Returns `graph` itself when no node asks for it.
 */
export function withStepNode(graph: DecisionGraph): DecisionGraph {
  const wanting = graph.nodes.filter((n) => truthy(n.options?.['step_input']));
  if (wanting.length === 0) return graph;
  const nodes = [...graph.nodes];
  let step = nodes.find((n) => n.name === STEP_NODE);
  if (!step) {
    step = {
      id: STEP_NODE,
      name: STEP_NODE,
      role: 'external',
      tunable: false,
      fields: [{ name: STEP_NODE, dataType: 'continuous', kind: 'int', visibility: 'normal' }],
    } satisfies GraphNode;
    nodes.push(step);
  }
  const edges = [...graph.edges];
  for (const n of wanting) {
    if (!edges.some((e) => e.source === step.id && e.target === n.id)) edges.push({ id: `${step.id}->${n.id}`, source: step.id, target: n.id });
  }
  return { ...graph, nodes, edges };
}
