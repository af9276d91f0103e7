/**
 * The decision graph's validation rules (spec workflow §5 "Decision graph" and "Field
 * settings"). Every rule yields issues with their own code that point at the node, edge or
 * field at fault, so the editor can show them in place and the server can refuse a save.
 */
import type { GraphIssue, GraphIssueCode, GraphIssueTarget } from './issues';
import {
  NEXT_PREFIX,
  type DecisionGraph,
  type GraphField,
  type GraphNode,
  type NodeRole,
  type SolutionKind,
} from './model';
import { isReachable, topologicalOrder } from './topology';

/** Options of {@link validateGraph}. */
export interface ValidateGraphOptions {
  /** Policy search needs an agent; parameter tuning needs a tunable parameter. */
  solution?: SolutionKind;
  /** Saving: python node functions must carry their code. */
  requireCode?: boolean;
  /** Names of the uploaded files; when given, every python file referenced must be among them. */
  files?: readonly string[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INPUT_ROLES: ReadonlySet<NodeRole> = new Set(['state', 'tunable', 'external']);

/** Whether a node is read from data (has no inputs). */
export function isInputRole(role: NodeRole): boolean {
  return INPUT_ROLES.has(role);
}

/** Reads a user-entered number: numbers and numeric strings count; anything else is `undefined`. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * Checks a graph against every rule. Returns all issues found (empty when the graph is valid);
 * never throws. Errors block saving; warnings do not.
 */
export function validateGraph(graph: DecisionGraph, options: ValidateGraphOptions = {}): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const add = (
    code: GraphIssueCode,
    target: GraphIssueTarget,
    params: Record<string, string | number> = {},
    severity: 'error' | 'warning' = 'error',
  ): void => {
    issues.push({ code, severity, target, params });
  };
  const G: GraphIssueTarget = { kind: 'graph' };
  if (graph.nodes.length === 0) {
    add('graph.empty', G);
    return issues;
  }

  // names and ids
  const idCount = new Map<string, number>();
  const nameCount = new Map<string, number>();
  for (const n of graph.nodes) {
    idCount.set(n.id, (idCount.get(n.id) ?? 0) + 1);
    const name = n.name.trim();
    if (name) nameCount.set(name, (nameCount.get(name) ?? 0) + 1);
  }
  const reportedIds = new Set<string>();
  for (const n of graph.nodes) {
    const at: GraphIssueTarget = { kind: 'node', nodeId: n.id };
    if ((idCount.get(n.id) ?? 0) > 1 && !reportedIds.has(n.id)) {
      reportedIds.add(n.id);
      add('graph.nodeIdDuplicate', at, { id: n.id });
    }
    const name = n.name.trim();
    if (!name) add('graph.nodeNameRequired', at);
    else if (!IDENTIFIER.test(name)) add('graph.nodeNameInvalid', at, { name });
    else if ((nameCount.get(name) ?? 0) > 1) add('graph.nodeNameDuplicate', at, { name });
  }
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));

  // fields
  for (const n of graph.nodes) {
    const inherits =
      (n.history !== undefined && byName.has(n.history.of)) ||
      (n.name.startsWith(NEXT_PREFIX) && byName.has(n.name.slice(NEXT_PREFIX.length)));
    if (n.fields.length === 0 && !inherits) add('graph.nodeNoFields', { kind: 'node', nodeId: n.id }, { name: n.name });
    const seen = new Set<string>();
    n.fields.forEach((f, i) => {
      checkField(n, f, i, add);
      const fname = f.name.trim();
      if (fname && seen.has(fname)) add('graph.fieldNameDuplicate', fieldAt(n, i, 'name'), { node: n.name, field: fname });
      seen.add(fname);
    });
    if (n.history && n.fields.length === 0 && !byName.has(n.history.of))
      add('graph.historyUnknownNode', { kind: 'node', nodeId: n.id }, { name: n.name, of: n.history.of });
    if (n.tunable && n.role !== 'tunable') add('graph.tunableRole', { kind: 'node', nodeId: n.id }, { name: n.name, role: n.role });
  }

  // edges
  const edgeSeen = new Set<string>();
  for (const e of graph.edges) {
    const at: GraphIssueTarget = { kind: 'edge', edgeId: e.id };
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t) {
      add('graph.edgeUnknownNode', at);
      continue;
    }
    if (s.id === t.id) {
      add('graph.edgeSelfLoop', at, { name: s.name });
      continue;
    }
    const key = `${s.id}\u0000${t.id}`;
    if (edgeSeen.has(key)) add('graph.edgeDuplicate', at, { source: s.name, target: t.name }, 'warning');
    edgeSeen.add(key);
    if (isInputRole(t.role)) add('graph.edgeIntoInput', at, { name: t.name, role: t.role });
    // a decision that follows another is allowed, but more often the node is the environment's response
    if (s.role === 'agent' && t.role === 'agent') add('graph.agentReadsAgent', { kind: 'node', nodeId: t.id }, { name: t.name, source: s.name }, 'warning');
  }
  const hasIn = new Set(graph.edges.filter((e) => byId.has(e.source)).map((e) => e.target));
  const hasOut = new Set(graph.edges.filter((e) => byId.has(e.target)).map((e) => e.source));
  for (const n of graph.nodes) {
    const at: GraphIssueTarget = { kind: 'node', nodeId: n.id };
    if (!isInputRole(n.role) && !hasIn.has(n.id)) add('graph.outputWithoutInputs', at, { name: n.name });
    if (graph.nodes.length > 1 && !hasIn.has(n.id) && !hasOut.has(n.id)) add('graph.nodeUnused', at, { name: n.name }, 'warning');
  }

  // cycles
  const topo = topologicalOrder(graph);
  if (!topo.ok) add('graph.cycle', G, { cycle: topo.cycle.join(' → ') });

  // states: initial and final connected
  for (const n of graph.nodes) {
    const at: GraphIssueTarget = { kind: 'node', nodeId: n.id };
    if (n.role === 'state') {
      const next = byName.get(NEXT_PREFIX + n.name);
      if (!next) {
        add('graph.stateWithoutNext', at, { name: n.name });
        continue;
      }
      if (!isReachable(graph, n.id, next.id))
        add('graph.stateNotConnected', { kind: 'node', nodeId: next.id }, { state: n.name, next: next.name });
      if (next.fields.length > 0 && n.fields.length > 0 && next.fields.length !== n.fields.length)
        add('graph.stateDimMismatch', { kind: 'node', nodeId: next.id }, {
          state: n.name,
          next: next.name,
          a: n.fields.length,
          b: next.fields.length,
        });
    }
    if (n.name.startsWith(NEXT_PREFIX)) {
      const state = byName.get(n.name.slice(NEXT_PREFIX.length));
      if (state?.role === 'state' && n.role !== 'environment') add('graph.nextNotEnvironment', at, { name: n.name });
      if (!state) add('graph.nextWithoutState', at, { name: n.name, state: n.name.slice(NEXT_PREFIX.length) }, 'warning');
    }
  }

  // roles the solution needs
  const agents = graph.nodes.filter((n) => n.role === 'agent');
  const tunables = graph.nodes.filter((n) => n.role === 'tunable');
  if (options.solution === 'tuning') {
    if (tunables.length === 0) add('graph.noTunable', G);
  } else if (options.solution === 'policy') {
    if (agents.length === 0) add('graph.noAgent', G);
  } else if (agents.length === 0 && tunables.length === 0) {
    add('graph.noAgent', G);
  }
  const outputs = graph.nodes.filter((n) => !isInputRole(n.role));
  if (outputs.length > 0 && outputs.every((n) => n.function !== undefined)) add('graph.noTrainableNode', G);

  // node functions
  for (const n of graph.nodes) {
    const fn = n.function;
    if (!fn) continue;
    const at: GraphIssueTarget = { kind: 'node', nodeId: n.id };
    if (isInputRole(n.role)) add('graph.functionOnInput', at, { name: n.name });
    if (fn.kind !== 'python') continue;
    if (!IDENTIFIER.test(fn.function)) add('graph.functionNameInvalid', at, { name: n.name, function: fn.function });
    if (options.requireCode && !(fn.code ?? '').trim()) add('graph.functionCodeRequired', at, { name: n.name });
    if (options.files && !options.files.includes(fn.file)) add('graph.functionFileMissing', at, { name: n.name, file: fn.file });
  }
  for (const n of graph.nodes) {
    const net = n.network;
    if (net?.kind === 'python' && options.files && !options.files.includes(net.file))
      add('graph.functionFileMissing', { kind: 'node', nodeId: n.id }, { name: n.name, file: net.file });
  }

  for (const m of graph.metricNodes ?? []) {
    const n = byName.get(m);
    if (!n || isInputRole(n.role)) add('graph.metricNodeUnknown', G, { name: m }, 'warning');
  }
  return issues;
}

function fieldAt(n: GraphNode, i: number, property?: 'name' | 'min' | 'max' | 'count' | 'values'): GraphIssueTarget {
  return property ? { kind: 'field', nodeId: n.id, fieldIndex: i, property } : { kind: 'field', nodeId: n.id, fieldIndex: i };
}

function checkField(
  n: GraphNode,
  f: GraphField,
  i: number,
  add: (code: GraphIssueCode, target: GraphIssueTarget, params?: Record<string, string | number>) => void,
): void {
  const field = f.name.trim();
  if (!field) add('graph.fieldNameRequired', fieldAt(n, i, 'name'), { node: n.name });
  const p = { field: field || `#${i + 1}`, node: n.name };
  if (f.dataType === 'continuous' || f.dataType === 'discrete') {
    const min = toNumber(f.min);
    const max = toNumber(f.max);
    const minGiven = f.min !== undefined && f.min !== null && f.min !== '';
    const maxGiven = f.max !== undefined && f.max !== null && f.max !== '';
    if (minGiven && min === undefined) add('graph.fieldMinNotNumber', fieldAt(n, i, 'min'), p);
    if (maxGiven && max === undefined) add('graph.fieldMaxNotNumber', fieldAt(n, i, 'max'), p);
    if (min !== undefined && max !== undefined && !(min < max)) add('graph.fieldMinNotLessThanMax', fieldAt(n, i, 'min'), p);
    if (f.dataType === 'discrete') {
      if (!minGiven || !maxGiven) add('graph.fieldBoundsRequired', fieldAt(n, i, minGiven ? 'max' : 'min'), p);
      const count = toNumber(f.count);
      if (count === undefined || !Number.isInteger(count) || count < 1) add('graph.fieldCountInvalid', fieldAt(n, i, 'count'), p);
    }
  } else {
    const values = f.values ?? [];
    if (values.length === 0) add('graph.fieldValuesRequired', fieldAt(n, i, 'values'), p);
    else if (values.some((v) => toNumber(v) === undefined)) add('graph.fieldValuesNotNumbers', fieldAt(n, i, 'values'), p);
    else if (new Set(values.map((v) => toNumber(v))).size !== values.length) add('graph.fieldValuesDuplicate', fieldAt(n, i, 'values'), p);
  }
}
