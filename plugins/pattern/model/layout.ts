/**
 * Auto layout of the decision graph with elkjs (layered, left to right: data inputs first,
 * then agents, then the environment). elkjs loads with `import()` so it stays out of the first
 * load; it runs on the main thread (graphs are small: tens of nodes).
 */
import type { DecisionGraph } from '@decisio/domain';

/** Size of a node box on the canvas, in px (the layout spaces boxes of this size). */
export const NODE_SIZE = { width: 200, height: 72 } as const;

/** Positions (top-left, px) of every node, keyed by node id. */
export type Positions = Record<string, { x: number; y: number }>;

/** Lays the graph out; returns a position per node. Edges to unknown nodes are ignored. */
export async function layoutGraph(graph: DecisionGraph): Promise<Positions> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const elk = new ELK();
  const ids = new Set(graph.nodes.map((n) => n.id));
  const result = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    },
    children: graph.nodes.map((n) => ({ id: n.id, width: NODE_SIZE.width, height: NODE_SIZE.height + 14 * Math.min(n.fields.length, 4) })),
    edges: graph.edges
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const out: Positions = {};
  for (const c of result.children ?? []) out[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return out;
}
