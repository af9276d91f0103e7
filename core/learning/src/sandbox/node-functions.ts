/**
 * Wires a graph's Python node functions (REVIVE expert functions) to a sandbox, as the
 * `nodeFunction` callback of venv rollouts.
 */
import type { DecisionGraph } from '@decisio/domain';
import { LearningError } from '../errors';
import type { NodeFunctionCall } from '../venv/bc';
import type { PythonSandbox } from './python-sandbox';

/** The files a graph's Python functions need, with the code kept in the graph. */
export function nodeFunctionFiles(graph: DecisionGraph): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of graph.nodes) if (n.function?.kind === 'python' && n.function.code) out[n.function.file] = n.function.code;
  return out;
}

/**
 * A {@link NodeFunctionCall} that runs `file.function(data)` in the sandbox for each Python
 * function node; `data` maps the node's inputs to `[rows, dim]` in original units.
 */
export function sandboxNodeFunctions(sandbox: PythonSandbox, graph: DecisionGraph, dims: Record<string, number>): NodeFunctionCall {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  return async (node, inputs, rows) => {
    const fn = byName.get(node)?.function;
    if (fn?.kind !== 'python') throw new LearningError('sandbox.missingFunction', { file: '-', function: node });
    const out = await sandbox.call(fn.file, fn.function, inputs, { rows, ...(dims[node] !== undefined ? { cols: dims[node] } : {}) });
    return out.data;
  };
}
