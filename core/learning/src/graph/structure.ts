/**
 * The computational view of a decision graph that data loading, venv training and rollouts
 * share: which nodes are read from data, which are learned, which are functions, the
 * resolved fields of every node (inherited by `next_X` and history nodes), and the order in
 * which outputs are computed at each step.
 */
import {
  NEXT_PREFIX,
  inputsOf,
  isInputRole,
  topologicalOrder,
  type DecisionGraph,
  type GraphField,
  type GraphNode,
} from '@decisio/domain';
import { LearningError } from '../errors';

/** One node as the learning engine sees it. */
export interface NodeSpec {
  name: string;
  role: GraphNode['role'];
  /** Fields of one frame (inherited for `next_X` and history nodes when not given). */
  fields: GraphField[];
  /** Frames (history length), 1 for ordinary nodes. */
  frames: number;
  /** Raw width: `fields.length * frames`. */
  dim: number;
  /** Input node names, in concatenation order. */
  inputs: string[];
  /** `'data'` (read from data), `'network'` (learned), `'function'` (user or built-in function). */
  source: 'data' | 'network' | 'function';
  /** For `next_X`: the state `X` it advances. */
  stateOf?: string;
  /** For a history node: the data node whose frames it holds. */
  historyOf?: string;
  node: GraphNode;
}

/** Structure of a graph; see the module comment. */
export interface GraphStructure {
  nodes: Map<string, NodeSpec>;
  /** Nodes read from data at each step (states at t0, external factors, tunable parameters). */
  inputs: string[];
  /** Output nodes in the order they are computed. */
  order: string[];
  /** Learned (network) nodes, in order. */
  learnable: string[];
  /** Function nodes, in order. */
  functions: string[];
  /** `[X, next_X]` pairs. */
  transitions: Array<[string, string]>;
  states: string[];
  externals: string[];
  tunables: string[];
  agents: string[];
  /**
   * Output nodes the overall venv score is computed over (REVIVE's `metric_nodes`, leaves and
   * unknown names left out, as REVIVE does); every output when the graph names none.
   */
  metricNodes: string[];
}

/**
 * Resolves the structure of a graph. Throws `LearningError('yaml.badGraph')`-free: structural
 * problems (cycles) should have been reported by `validateGraph`; a cycle here throws a plain
 * Error naming it.
 */
export function analyseGraph(graph: DecisionGraph): GraphStructure {
  const topo = topologicalOrder(graph);
  if (!topo.ok) throw new Error(`decision graph has a cycle: ${topo.cycle.join(' -> ')}`);
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const resolveFields = (n: GraphNode, depth = 0): GraphField[] => {
    if (n.fields.length > 0 || depth > 4) return n.fields;
    if (n.history) {
      const base = byName.get(n.history.of);
      return base ? resolveFields(base, depth + 1) : [];
    }
    if (n.name.startsWith(NEXT_PREFIX)) {
      const base = byName.get(n.name.slice(NEXT_PREFIX.length));
      return base ? resolveFields(base, depth + 1) : [];
    }
    return [];
  };
  const framesOf = (n: GraphNode): number => {
    if (n.history) return n.history.steps;
    if (n.name.startsWith(NEXT_PREFIX)) {
      const base = byName.get(n.name.slice(NEXT_PREFIX.length));
      if (base?.history) return base.history.steps;
    }
    return 1;
  };
  const nodes = new Map<string, NodeSpec>();
  const s: GraphStructure = {
    nodes,
    inputs: [],
    order: [],
    learnable: [],
    functions: [],
    transitions: [],
    states: [],
    externals: [],
    tunables: [],
    agents: [],
    metricNodes: [],
  };
  for (const n of topo.order) {
    const fields = resolveFields(n);
    const frames = framesOf(n);
    const source: NodeSpec['source'] = isInputRole(n.role) ? 'data' : n.function ? 'function' : 'network';
    const spec: NodeSpec = {
      name: n.name,
      role: n.role,
      fields,
      frames,
      dim: fields.length * frames,
      inputs: inputsOf(graph, n.id).map((i) => i.name),
      source,
      node: n,
    };
    if (n.name.startsWith(NEXT_PREFIX)) {
      const st = byName.get(n.name.slice(NEXT_PREFIX.length));
      if (st && st.role === 'state') {
        spec.stateOf = st.name;
        s.transitions.push([st.name, n.name]);
      }
    }
    if (n.history) spec.historyOf = n.history.of;
    nodes.set(n.name, spec);
    if (source === 'data') s.inputs.push(n.name);
    else s.order.push(n.name);
    if (source === 'network') s.learnable.push(n.name);
    if (source === 'function') s.functions.push(n.name);
    if (n.role === 'state') s.states.push(n.name);
    if (n.role === 'external') s.externals.push(n.name);
    if (n.role === 'tunable') s.tunables.push(n.name);
    if (n.role === 'agent') s.agents.push(n.name);
  }
  const named = (graph.metricNodes ?? []).filter((m) => s.order.includes(m));
  s.metricNodes = named.length > 0 ? named : [...s.order];
  return s;
}

/** The spec of a node or a `LearningError('data.missingNode')`. */
export function nodeSpec(structure: GraphStructure, name: string): NodeSpec {
  const n = structure.nodes.get(name);
  if (!n) throw new LearningError('data.missingNode', { node: name });
  return n;
}
