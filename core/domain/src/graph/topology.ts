/**
 * Graph structure helpers: inputs of a node (in edge order, which is the order in which inputs
 * are concatenated), topological order, cycle detection and reachability.
 */
import type { DecisionGraph, GraphNode } from './model';

/** Input nodes of `nodeId`, in the order of the edges list. Unknown ids are skipped. */
export function inputsOf(graph: DecisionGraph, nodeId: string): GraphNode[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out: GraphNode[] = [];
  for (const e of graph.edges) {
    if (e.target !== nodeId) continue;
    const n = byId.get(e.source);
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

/** Result of {@link topologicalOrder}: either an order or a cycle (node names, first repeated last). */
export type TopologyResult = { ok: true; order: GraphNode[] } | { ok: false; cycle: string[] };

/**
 * Orders all nodes so that every node comes after its inputs (Kahn's algorithm, ties broken by
 * the order of `graph.nodes`, so the result is deterministic). On a cycle, returns one cycle
 * named by node names, e.g. `['a', 'b', 'a']`.
 */
export function topologicalOrder(graph: DecisionGraph): TopologyResult {
  const ids = graph.nodes.map((n) => n.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const indeg = new Array<number>(ids.length).fill(0);
  const succ: number[][] = ids.map(() => []);
  const seen = new Set<string>();
  for (const e of graph.edges) {
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s === undefined || t === undefined) continue;
    const key = `${s}->${t}`;
    if (seen.has(key)) continue;
    seen.add(key);
    succ[s]!.push(t);
    indeg[t]! += 1;
  }
  const ready: number[] = [];
  for (let i = 0; i < ids.length; i++) if (indeg[i] === 0) ready.push(i);
  const order: number[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => a - b);
    const i = ready.shift()!;
    order.push(i);
    for (const t of succ[i]!) {
      indeg[t]! -= 1;
      if (indeg[t] === 0) ready.push(t);
    }
  }
  if (order.length === ids.length) return { ok: true, order: order.map((i) => graph.nodes[i]!) };
  return { ok: false, cycle: findCycle(graph, succ) };
}

function findCycle(graph: DecisionGraph, succ: number[][]): string[] {
  const n = graph.nodes.length;
  const colour = new Array<number>(n).fill(0); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  let found: number[] | undefined;
  const visit = (u: number): void => {
    if (found) return;
    colour[u] = 1;
    stack.push(u);
    for (const v of succ[u]!) {
      if (found) return;
      if (colour[v] === 1) {
        found = [...stack.slice(stack.indexOf(v)), v];
        return;
      }
      if (colour[v] === 0) visit(v);
    }
    stack.pop();
    colour[u] = 2;
  };
  for (let i = 0; i < n && !found; i++) if (colour[i] === 0) visit(i);
  return (found ?? []).map((i) => graph.nodes[i]!.name);
}

/** Whether a directed path leads from `fromId` to `toId`. */
export function isReachable(graph: DecisionGraph, fromId: string, toId: string): boolean {
  const seen = new Set<string>([fromId]);
  const queue = [fromId];
  while (queue.length > 0) {
    const u = queue.shift()!;
    if (u === toId) return true;
    for (const e of graph.edges) {
      if (e.source === u && !seen.has(e.target)) {
        seen.add(e.target);
        queue.push(e.target);
      }
    }
  }
  return false;
}
