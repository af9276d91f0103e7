/**
 * The decision graph document (spec workflow §3 "Graph node", §5 "Decision graph", "Field settings").
 *
 * A graph is a set of nodes joined by directed edges (input -> output). Every node holds the
 * fields (data columns) that make up its vector. Roles:
 *
 * - `state`: an environment state `X` read at time t. Its value at t+1 is the node `next_X`
 *   (the "final" state), which the environment produces. Initial and final states must be
 *   connected by a path.
 * - `agent`: a decision made by a policy (learned from data, then improved by policy training).
 * - `environment`: an environment agent: a node the environment computes (learned from data or
 *   given by a node function), including every `next_X`.
 * - `tunable`: a tunable parameter, constant along a trajectory, searched by parameter tuning.
 * - `external`: an external factor (outer factor) read from data at every step.
 *
 * `state`, `tunable` and `external` nodes are inputs (no incoming edge). `agent` and
 * `environment` nodes are outputs computed from their inputs in topological order; they are
 * learned from data unless they carry a node function.
 *
 * The document is versioned (`schemaVersion`) with named migration steps (STYLE §9).
 */
import { z } from 'zod';

/** Current version of the graph document. */
export const GRAPH_SCHEMA_VERSION = 1;

/** Field data types: continuous, discrete ordered, discrete unordered (category). */
export const FIELD_DATA_TYPES = ['continuous', 'discrete', 'category'] as const;
export type FieldDataType = (typeof FIELD_DATA_TYPES)[number];

/** Kinds of the source column of a field. */
export const FIELD_KINDS = ['int', 'float', 'datetime', 'bool', 'string'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Field visibility in the editor. */
export const FIELD_VISIBILITIES = ['normal', 'hidden'] as const;
export type FieldVisibility = (typeof FIELD_VISIBILITIES)[number];

/** Node roles (see the module comment). */
export const NODE_ROLES = ['state', 'agent', 'environment', 'tunable', 'external'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** Edge statuses shown by the editor. */
export const EDGE_STATUSES = ['invalid', 'start', 'effect'] as const;
export type EdgeStatus = (typeof EDGE_STATUSES)[number];

/** Names of the built-in node functions (see `@decisio/learning` for their semantics). */
export const BUILTIN_FUNCTIONS = ['identity', 'sum', 'difference'] as const;
export type BuiltinFunctionName = (typeof BUILTIN_FUNCTIONS)[number];

/** Solution types that change which nodes a graph needs. */
export type SolutionKind = 'policy' | 'tuning';

/**
 * One field (column) of a node. Numbers are kept as given by the user (the editor keeps raw
 * input) so that validation can tell "not a number" from "missing".
 */
export const graphFieldSchema = z.object({
  /** Column name in the data. */
  name: z.string(),
  dataType: z.enum(FIELD_DATA_TYPES),
  kind: z.enum(FIELD_KINDS).default('float'),
  visibility: z.enum(FIELD_VISIBILITIES).default('normal'),
  /** Lower bound (continuous, discrete). Optional for continuous: taken from the data. */
  min: z.unknown().optional(),
  /** Upper bound (continuous, discrete). */
  max: z.unknown().optional(),
  /** Discrete number: how many evenly spaced values between min and max (discrete only). */
  count: z.unknown().optional(),
  /** Allowed values (category only). */
  values: z.array(z.unknown()).optional(),
  /** `false` keeps the field as input only and leaves it out of the fitting loss (REVIVE `fit`). */
  fit: z.boolean().optional(),
});
export type GraphField = z.infer<typeof graphFieldSchema>;

/** A node function: user Python (`file` + `function`) or a built-in. */
export const nodeFunctionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('python'),
    /** File name, e.g. `expert_function.py`. */
    file: z.string(),
    /** Function inside the file. */
    function: z.string(),
    /** Source code when the file is kept with the graph (required before save). */
    code: z.string().optional(),
  }),
  z.object({ kind: z.literal('builtin'), name: z.enum(BUILTIN_FUNCTIONS) }),
]);
export type NodeFunction = z.infer<typeof nodeFunctionSchema>;

/** A custom network for a learned node. */
export const customNetworkSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mlp'),
    hidden: z.array(z.number().int().positive()).optional(),
    activation: z.enum(['relu', 'tanh', 'silu', 'leakyrelu']).optional(),
  }),
  /** A user Python class, REVIVE `custom_nodes: {node: 'file.Class'}`. */
  z.object({ kind: z.literal('python'), file: z.string(), className: z.string() }),
]);
export type CustomNetwork = z.infer<typeof customNetworkSchema>;

/** One node of the graph. */
export const graphNodeSchema = z.object({
  /** Stable id used by edges and by the editor (YAML import uses the name). */
  id: z.string(),
  /** Variable name: the key in data and YAML. Unique. */
  name: z.string(),
  /** Display name (any language). */
  label: z.string().optional(),
  role: z.enum(NODE_ROLES),
  fields: z.array(graphFieldSchema).default([]),
  /** Tunable flag (true for tunable parameters). */
  tunable: z.boolean().default(false),
  function: nodeFunctionSchema.optional(),
  network: customNetworkSchema.optional(),
  /**
   * History node (REVIVE `ts_X` with `nodes: {X: {ts: k}}`): this node holds the last `steps`
   * frames of node `of`, oldest first. Its fields are those of `of`, repeated.
   */
  history: z.object({ of: z.string(), steps: z.number().int().min(2) }).optional(),
  /** Editor position. */
  position: z.object({ x: z.number(), y: z.number() }).optional(),
  /** Unknown per-node options kept for round trips (REVIVE `metadata.nodes.<name>`). */
  options: z.record(z.string(), z.unknown()).optional(),
});
export type GraphNode = z.infer<typeof graphNodeSchema>;

/** A directed edge: `source` is an input of `target`. Ids are node ids. */
export const graphEdgeSchema = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  status: z.enum(EDGE_STATUSES).optional(),
});
export type GraphEdge = z.infer<typeof graphEdgeSchema>;

/** The whole graph document. */
export const decisionGraphSchema = z.object({
  schemaVersion: z.literal(GRAPH_SCHEMA_VERSION),
  nodes: z.array(graphNodeSchema),
  edges: z.array(graphEdgeSchema),
  /** Nodes whose error counts in the environment score (REVIVE `metric_nodes`); all when absent. */
  metricNodes: z.array(z.string()).optional(),
  /** Free text version tag (REVIVE `metadata.version`). */
  version: z.string().optional(),
});
export type DecisionGraph = z.infer<typeof decisionGraphSchema>;

/** Prefix of the node that holds the next value of a state. */
export const NEXT_PREFIX = 'next_';
/** Prefix of a history node. */
export const TS_PREFIX = 'ts_';

/** Returns the state name `X` of a `next_X` name, or `undefined`. */
export function stateOfNext(name: string): string | undefined {
  return name.startsWith(NEXT_PREFIX) && name.length > NEXT_PREFIX.length
    ? name.slice(NEXT_PREFIX.length)
    : undefined;
}

/** Width of a node's raw vector (history nodes count every frame). */
export function nodeDim(node: GraphNode, graph?: DecisionGraph): number {
  if (node.history && node.fields.length === 0 && graph) {
    const base = graph.nodes.find((n) => n.name === node.history?.of);
    return (base?.fields.length ?? 0) * node.history.steps;
  }
  return node.fields.length * (node.history?.steps ?? 1);
}

/**
 * Migration steps, keyed by the version they upgrade from. Each step takes the document of
 * version `v` and returns one of version `v + 1`.
 */
export const GRAPH_MIGRATIONS: Record<number, { name: string; up: (doc: Record<string, unknown>) => Record<string, unknown> }> = {
  0: {
    name: 'add-schema-version',
    up: (doc) => ({ ...doc, schemaVersion: 1, edges: doc['edges'] ?? [] }),
  },
};

/**
 * Parses a stored graph document of any known version, applying the migration steps in order.
 * Throws the zod error when the result does not match the current schema.
 */
export function parseDecisionGraph(input: unknown): DecisionGraph {
  let doc: Record<string, unknown> =
    typeof input === 'object' && input !== null ? { ...(input as Record<string, unknown>) } : {};
  let version = typeof doc['schemaVersion'] === 'number' ? (doc['schemaVersion'] as number) : 0;
  while (version < GRAPH_SCHEMA_VERSION) {
    const step = GRAPH_MIGRATIONS[version];
    if (!step) break;
    doc = step.up(doc);
    version += 1;
  }
  return decisionGraphSchema.parse(doc);
}
