/**
 * REVIVE-compatible YAML import and export of the decision graph, shared by the learning engine
 * (CLI, tasks, training) and the workbench's graph editor. Errors are {@link GraphYamlError}
 * with stable `yaml.*` codes and message parameters; each side translates them.
 *
 * REVIVE's format (polixir REVIVE SDK, `metadata` section):
 *
 * ```yaml
 * metadata:
 *   graph:                     # output: [inputs], inputs concatenated in this order
 *     action: [temperature]
 *     next_temperature: [action, temperature, door_open]
 *   columns:                   # one entry per data column, grouped into nodes by `dim`
 *   - obs_temp: {dim: temperature, type: continuous, max: 20, min: -20}
 *   - door: {dim: door_open, type: category, values: [0, 1]}
 *   - level: {dim: x, type: discrete, min: 0, max: 10, num: 11}
 *   tunable: [parameter]       # tunable parameters (constant per trajectory)
 *   nodes: {temperature: {ts: 5}}          # history nodes ts_temperature (last 5 frames)
 *   expert_functions: {next_obs: {node_function: expert_function.dynamics}}
 *   custom_nodes: {engine_action: custom_node.EngineNode}
 *   metric_nodes: [next_temperature]
 * ```
 *
 * Roles are inferred as REVIVE does: an output `next_X` advances the state `X`; a leaf input
 * whose `next_` is an output is a state; other leaf inputs are external factors read from data
 * at each step, or tunable parameters when listed under `tunable`. REVIVE does not mark which
 * outputs are policies: outputs computed only from data inputs (states, external factors,
 * tunables) are taken as agents unless `agents` is given; an output that reads an agent's
 * decision (sales that follow a price, say) is the environment's response, learned like
 * `next_X`. A decision that follows another decision is marked with `agents` or the
 * `decisio:` roles. What REVIVE cannot hold (roles, labels, field kinds
 * and visibility, built-in functions, positions) goes under a top-level `decisio:` key that
 * REVIVE ignores, so an exported file trains unchanged in REVIVE and re-imports losslessly.
 */
import yaml from 'js-yaml';
import {
  GRAPH_SCHEMA_VERSION,
  NEXT_PREFIX,
  TS_PREFIX,
  type BuiltinFunctionName,
  type DecisionGraph,
  type GraphField,
  type GraphNode,
  type NodeRole,
} from './model';
import { toNumber } from './validate';

/** Codes of YAML errors. */
export type GraphYamlErrorCode =
  | 'yaml.parse'
  | 'yaml.noMetadata'
  | 'yaml.noGraph'
  | 'yaml.noColumns'
  | 'yaml.badColumn'
  | 'yaml.badType'
  | 'yaml.badGraph'
  | 'yaml.badFunction';

/** A YAML file that cannot be read: a stable code and its message parameters. */
export class GraphYamlError extends Error {
  constructor(
    readonly code: GraphYamlErrorCode,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${code} ${JSON.stringify(params)}`);
    this.name = 'GraphYamlError';
  }
}

/** Options of {@link importReviveYaml}. */
export interface ImportYamlOptions {
  /** Output nodes to mark as agents (overrides the inference). */
  agents?: readonly string[];
}

/** Result of {@link importReviveYaml}. */
export interface ImportYamlResult {
  graph: DecisionGraph;
  /** Python files the YAML refers to (expert functions, custom nodes). */
  files: string[];
  /** Things REVIVE accepts but that were dropped or adjusted, in English. */
  warnings: string[];
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

interface RawColumn {
  name: string;
  dim: string;
  spec: Dict;
}

/** Parses REVIVE YAML text into a graph document. Throws {@link GraphYamlError} `yaml.*`. */
export function importReviveYaml(text: string, options: ImportYamlOptions = {}): ImportYamlResult {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new GraphYamlError('yaml.parse', { detail: (e as Error).message.split('\n')[0] ?? '' });
  }
  if (!isDict(doc) || !isDict(doc['metadata'])) throw new GraphYamlError('yaml.noMetadata');
  const meta = doc['metadata'];
  const ext = isDict(doc['decisio']) ? doc['decisio'] : {};
  const warnings: string[] = [];
  if (!isDict(meta['graph'])) throw new GraphYamlError('yaml.noGraph');
  if (!Array.isArray(meta['columns'])) throw new GraphYamlError('yaml.noColumns');

  // graph: output -> inputs
  const graphDict = new Map<string, string[]>();
  for (const [out, ins] of Object.entries(meta['graph'])) {
    const list = typeof ins === 'string' ? [ins] : Array.isArray(ins) ? ins : undefined;
    if (!list || list.some((x) => typeof x !== 'string')) throw new GraphYamlError('yaml.badGraph', { node: out });
    graphDict.set(out, list as string[]);
  }

  // columns grouped by dim, in order
  const columns: RawColumn[] = [];
  (meta['columns'] as unknown[]).forEach((entry, i) => {
    if (!isDict(entry) || Object.keys(entry).length !== 1)
      throw new GraphYamlError('yaml.badColumn', { index: i + 1, detail: 'expected "- name: {dim: ..., type: ...}"' });
    const [name, spec] = Object.entries(entry)[0]!;
    if (!isDict(spec) || typeof spec['dim'] !== 'string')
      throw new GraphYamlError('yaml.badColumn', { index: i + 1, detail: `"${name}" needs a "dim"` });
    columns.push({ name, dim: spec['dim'], spec });
  });
  const fieldsByDim = new Map<string, GraphField[]>();
  for (const c of columns) {
    const list = fieldsByDim.get(c.dim) ?? [];
    list.push(columnToField(c));
    fieldsByDim.set(c.dim, list);
  }

  // history (ts) configuration
  const nodeOptions = isDict(meta['nodes']) ? meta['nodes'] : {};
  const tsSteps = new Map<string, number>();
  for (const [k, v] of Object.entries(nodeOptions)) {
    const ts = isDict(v) ? toNumber(v['ts']) : undefined;
    if (ts !== undefined && ts > 1) tsSteps.set(k, Math.floor(ts));
  }

  // node names: leaves first (order of appearance), then outputs in graph order
  const outputs = [...graphDict.keys()];
  const leaves: string[] = [];
  for (const ins of graphDict.values()) for (const n of ins) if (!graphDict.has(n) && !leaves.includes(n)) leaves.push(n);
  const tunable = Array.isArray(meta['tunable']) ? (meta['tunable'] as unknown[]).map(String) : [];
  const experts = isDict(meta['expert_functions']) ? meta['expert_functions'] : {};
  const customs = isDict(meta['custom_nodes']) ? meta['custom_nodes'] : {};
  const extRoles = isDict(ext['roles']) ? (ext['roles'] as Dict) : {};
  const extLabels = isDict(ext['labels']) ? (ext['labels'] as Dict) : {};
  const extPositions = isDict(ext['positions']) ? (ext['positions'] as Dict) : {};
  const extBuiltins = isDict(ext['builtins']) ? (ext['builtins'] as Dict) : {};
  const extFields = isDict(ext['fields']) ? (ext['fields'] as Dict) : {};
  const files = new Set<string>();

  const roleOf = new Map<string, NodeRole>();
  for (const n of leaves) {
    if (tunable.includes(n)) roleOf.set(n, 'tunable');
    else if (graphDict.has(NEXT_PREFIX + n)) roleOf.set(n, 'state');
    else roleOf.set(n, 'external');
  }
  for (const t of tunable) if (!leaves.includes(t) && !graphDict.has(t)) warnings.push(`tunable "${t}" is not in the graph`);
  // outputs in dependency order for agent inference
  const pending = [...outputs];
  const resolved = new Set<string>(leaves);
  const ordered: string[] = [];
  while (pending.length > 0) {
    const i = pending.findIndex((o) => (graphDict.get(o) ?? []).every((x) => resolved.has(x) || x === o));
    const o = pending.splice(i >= 0 ? i : 0, 1)[0]!;
    ordered.push(o);
    resolved.add(o);
  }
  for (const o of ordered) {
    const stateName = o.startsWith(NEXT_PREFIX) ? o.slice(NEXT_PREFIX.length) : undefined;
    let role: NodeRole;
    if (options.agents) role = options.agents.includes(o) ? 'agent' : 'environment';
    else if (stateName !== undefined && (roleOf.has(stateName) || graphDict.has(stateName))) role = 'environment';
    else if (o in experts || o in extBuiltins) role = 'environment';
    else {
      const ins = graphDict.get(o) ?? [];
      // only data inputs: an output that reads a decision responds to it (the environment's part)
      const fromData = ins.every((x) => roleOf.get(x) === 'state' || roleOf.get(x) === 'external' || roleOf.get(x) === 'tunable');
      role = fromData ? 'agent' : 'environment';
    }
    roleOf.set(o, role);
  }
  for (const [n, r] of Object.entries(extRoles)) {
    if (roleOf.has(n) && typeof r === 'string' && ['state', 'agent', 'environment', 'tunable', 'external'].includes(r))
      roleOf.set(n, r as NodeRole);
  }

  const names = [...leaves, ...outputs];
  // columns whose node is not in the graph are kept as unconnected external factors
  for (const dim of fieldsByDim.keys()) {
    const usedAsHistory = [...tsSteps.keys()].includes(dim) && names.some((n) => n === TS_PREFIX + dim || n === NEXT_PREFIX + TS_PREFIX + dim);
    if (!names.includes(dim) && !usedAsHistory) {
      warnings.push(`columns of "${dim}" belong to no node of the graph; kept as an unconnected external factor`);
      names.push(dim);
      roleOf.set(dim, 'external');
    }
  }

  const nodes: GraphNode[] = names.map((name) => {
    const role = roleOf.get(name)!;
    const node: GraphNode = { id: name, name, role, fields: [], tunable: role === 'tunable' };
    const histBase = name.startsWith(TS_PREFIX) ? name.slice(TS_PREFIX.length) : undefined;
    if (histBase !== undefined && tsSteps.has(histBase)) {
      node.history = { of: histBase, steps: tsSteps.get(histBase)! };
      node.fields = (fieldsByDim.get(histBase) ?? []).map((f) => ({ ...f }));
    } else {
      node.fields = (fieldsByDim.get(name) ?? []).map((f) => ({ ...f }));
    }
    const inheritsFrom = name.startsWith(NEXT_PREFIX) ? name.slice(NEXT_PREFIX.length) : undefined;
    if (node.fields.length === 0 && !(inheritsFrom && names.includes(inheritsFrom)))
      warnings.push(`node "${name}" has no columns`);
    const opts = nodeOptions[name];
    if (isDict(opts)) {
      const rest = Object.fromEntries(Object.entries(opts).filter(([k]) => k !== 'ts'));
      if (Object.keys(rest).length > 0) node.options = rest;
    }
    const fx = experts[name];
    if (typeof extBuiltins[name] === 'string') {
      node.function = { kind: 'builtin', name: extBuiltins[name] as BuiltinFunctionName };
    } else if (fx !== undefined) {
      node.function = parseExpert(name, fx);
      if (node.function.kind === 'python') files.add(node.function.file);
    }
    const custom = customs[name];
    if (typeof custom === 'string') {
      const dot = custom.lastIndexOf('.');
      node.network = { kind: 'python', file: `${custom.slice(0, dot)}.py`, className: custom.slice(dot + 1) };
      files.add(node.network.file);
    }
    if (typeof extLabels[name] === 'string') node.label = extLabels[name] as string;
    const pos = extPositions[name];
    if (Array.isArray(pos) && pos.length === 2) node.position = { x: Number(pos[0]), y: Number(pos[1]) };
    const fx2 = extFields[name];
    if (Array.isArray(fx2))
      fx2.forEach((f, i) => {
        const field = node.fields[i];
        if (!field || !isDict(f)) return;
        if (typeof f['kind'] === 'string') field.kind = f['kind'] as GraphField['kind'];
        if (f['visibility'] === 'hidden') field.visibility = 'hidden';
      });
    return node;
  });
  // nodes configured with ts but whose base also appears by itself keep their own fields
  const edges = outputs.flatMap((o) =>
    (graphDict.get(o) ?? []).map((i) => ({ id: `${i}->${o}`, source: i, target: o })),
  );
  const graph: DecisionGraph = { schemaVersion: GRAPH_SCHEMA_VERSION, nodes, edges };
  if (Array.isArray(meta['metric_nodes'])) graph.metricNodes = (meta['metric_nodes'] as unknown[]).map(String);
  if (meta['version'] !== undefined) graph.version = String(meta['version']);
  return { graph, files: [...files], warnings };
}

function columnToField(c: RawColumn): GraphField {
  const t = c.spec['type'];
  const field: GraphField = { name: c.name, dataType: 'continuous', kind: 'float', visibility: 'normal' };
  if (t === 'continuous' || t === undefined) {
    field.dataType = 'continuous';
  } else if (t === 'discrete') {
    field.dataType = 'discrete';
    field.count = c.spec['num'];
  } else if (t === 'category') {
    field.dataType = 'category';
    const values = c.spec['values'];
    field.values = Array.isArray(values) ? values : [];
    if (field.values.every((v) => typeof v === 'number' && Number.isInteger(v))) field.kind = 'int';
  } else {
    throw new GraphYamlError('yaml.badType', { column: c.name, type: String(t) });
  }
  if (field.dataType !== 'category') {
    if (c.spec['min'] !== undefined && c.spec['min'] !== null) field.min = c.spec['min'];
    if (c.spec['max'] !== undefined && c.spec['max'] !== null) field.max = c.spec['max'];
  }
  if (c.spec['fit'] === false) field.fit = false;
  return field;
}

function parseExpert(node: string, fx: unknown): NonNullable<GraphNode['function']> {
  // REVIVE: {node_function: 'file.function'}; also accepted: 'file.function', {script: 'file.py', function: 'f'}
  let file: string | undefined;
  let fn: string | undefined;
  const ref = typeof fx === 'string' ? fx : isDict(fx) ? fx['node_function'] : undefined;
  if (typeof ref === 'string') {
    const dot = ref.lastIndexOf('.');
    if (dot <= 0) throw new GraphYamlError('yaml.badFunction', { node, detail: 'expected "file.function"' });
    file = `${ref.slice(0, dot)}.py`;
    fn = ref.slice(dot + 1);
  } else if (isDict(fx) && typeof fx['script'] === 'string') {
    file = fx['script'];
    if (!file.endsWith('.py')) file += '.py';
    fn = typeof fx['function'] === 'string' ? fx['function'] : node;
  }
  if (!file || !fn) throw new GraphYamlError('yaml.badFunction', { node, detail: 'expected "node_function: file.function"' });
  return { kind: 'python', file, function: fn };
}

/** Result of {@link exportReviveYaml}. */
export interface ExportYamlResult {
  yaml: string;
  /** Files to write beside the YAML: user function code kept in the graph and generated built-ins. */
  files: Record<string, string>;
}

/** Name of the generated Python module that implements built-in node functions for REVIVE. */
export const BUILTIN_MODULE = 'decisio_builtin';

/**
 * Writes a graph as REVIVE YAML (the style of REVIVE's published examples). Built-in node
 * functions become functions of a generated `decisio_builtin.py` so REVIVE runs them too.
 */
export function exportReviveYaml(graph: DecisionGraph): ExportYamlResult {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const files: Record<string, string> = {};
  const L: string[] = ['metadata:'];
  if (graph.version !== undefined) L.push(`  version: ${scalar(graph.version)}`);

  L.push('  graph:');
  for (const n of graph.nodes) {
    const ins = graph.edges.filter((e) => e.target === n.id).map((e) => byId.get(e.source)?.name).filter((x): x is string => !!x);
    if (ins.length === 0) continue;
    L.push(`    ${key(n.name)}:`);
    for (const i of [...new Set(ins)]) L.push(`    - ${key(i)}`);
  }

  L.push('  columns:');
  const emitted = new Set<string>();
  for (const n of graph.nodes) {
    let dim = n.name;
    if (n.history) {
      dim = n.history.of;
      if (byName.has(dim) || emitted.has(dim)) continue; // that node writes them
    }
    if (emitted.has(dim)) continue;
    if (n.fields.length === 0) continue;
    emitted.add(dim);
    for (const f of n.fields) {
      L.push(`  - ${key(f.name)}:`);
      L.push(`      dim: ${key(dim)}`);
      L.push(`      type: ${f.dataType}`);
      if (f.dataType === 'category') {
        L.push(`      values: [${(f.values ?? []).map((v) => scalar(toNumber(v) ?? v)).join(', ')}]`);
      } else {
        if (f.max !== undefined && f.max !== '') L.push(`      max: ${scalar(toNumber(f.max) ?? f.max)}`);
        if (f.min !== undefined && f.min !== '') L.push(`      min: ${scalar(toNumber(f.min) ?? f.min)}`);
        if (f.dataType === 'discrete' && f.count !== undefined) L.push(`      num: ${scalar(toNumber(f.count) ?? f.count)}`);
      }
      if (f.fit === false) L.push('      fit: false');
    }
  }

  const tunables = graph.nodes.filter((n) => n.role === 'tunable');
  if (tunables.length > 0) {
    L.push('  tunable:');
    for (const t of tunables) L.push(`  - ${key(t.name)}`);
  }

  const nodeOpts: Array<[string, Record<string, unknown>]> = [];
  for (const n of graph.nodes) {
    const o: Record<string, unknown> = { ...(n.options ?? {}) };
    if (n.history) nodeOpts.push([n.history.of, { ts: n.history.steps, ...o }]);
    else if (Object.keys(o).length > 0) nodeOpts.push([n.name, o]);
  }
  if (nodeOpts.length > 0) {
    L.push('  nodes:');
    for (const [name, o] of nodeOpts) {
      L.push(`    ${key(name)}:`);
      for (const [k, v] of Object.entries(o)) L.push(`      ${key(k)}: ${inline(v)}`);
    }
  }

  const builtinCode: string[] = [];
  const expertLines: string[] = [];
  for (const n of graph.nodes) {
    const fn = n.function;
    if (!fn) continue;
    if (fn.kind === 'python') {
      expertLines.push(`    ${key(n.name)}:`, `      'node_function' : '${fn.file.replace(/\.py$/, '')}.${fn.function}'`);
      if (fn.code) files[fn.file] = fn.code;
    } else {
      const ins = graph.edges.filter((e) => e.target === n.id).map((e) => byId.get(e.source)?.name ?? '');
      builtinCode.push(builtinPython(n.name, fn.name, ins));
      expertLines.push(`    ${key(n.name)}:`, `      'node_function' : '${BUILTIN_MODULE}.${n.name}'`);
    }
  }
  if (expertLines.length > 0) L.push('  expert_functions:', ...expertLines);
  if (builtinCode.length > 0)
    files[`${BUILTIN_MODULE}.py`] = `# Generated by Decisio: built-in node functions.\nimport numpy as np\n\n\n${builtinCode.join('\n\n')}`;

  const customs = graph.nodes.filter((n) => n.network?.kind === 'python');
  if (customs.length > 0) {
    L.push('  custom_nodes:');
    for (const n of customs)
      if (n.network?.kind === 'python') L.push(`    ${key(n.name)}: '${n.network.file.replace(/\.py$/, '')}.${n.network.className}'`);
  }
  if (graph.metricNodes && graph.metricNodes.length > 0) {
    L.push('  metric_nodes:');
    for (const m of graph.metricNodes) L.push(`  - ${key(m)}`);
  }

  // Decisio extension: what REVIVE cannot hold
  const ext: Record<string, unknown> = { schemaVersion: graph.schemaVersion };
  ext['roles'] = Object.fromEntries(graph.nodes.map((n) => [n.name, n.role]));
  const labels = graph.nodes.filter((n) => n.label).map((n) => [n.name, n.label]);
  if (labels.length > 0) ext['labels'] = Object.fromEntries(labels);
  const positions = graph.nodes.filter((n) => n.position).map((n) => [n.name, [n.position!.x, n.position!.y]]);
  if (positions.length > 0) ext['positions'] = Object.fromEntries(positions);
  const builtins = graph.nodes.filter((n) => n.function?.kind === 'builtin').map((n) => [n.name, (n.function as { name: string }).name]);
  if (builtins.length > 0) ext['builtins'] = Object.fromEntries(builtins);
  const fieldExt = graph.nodes
    .filter((n) => !n.history && n.fields.some((f) => f.kind !== inferredKind(f) || f.visibility === 'hidden'))
    .map((n) => [n.name, n.fields.map((f) => ({ kind: f.kind, ...(f.visibility === 'hidden' ? { visibility: 'hidden' } : {}) }))]);
  if (fieldExt.length > 0) ext['fields'] = Object.fromEntries(fieldExt);
  L.push('decisio:');
  L.push(...yaml.dump(ext, { flowLevel: 2, lineWidth: 200 }).trimEnd().split('\n').map((l) => `  ${l}`));
  return { yaml: `${L.join('\n')}\n`, files };
}

/** The kind import infers for a field; only other kinds are written to the extension. */
function inferredKind(f: GraphField): GraphField['kind'] {
  return f.dataType === 'category' && (f.values ?? []).every((v) => typeof v === 'number' && Number.isInteger(v)) ? 'int' : 'float';
}

function builtinPython(node: string, name: BuiltinFunctionName, inputs: string[]): string {
  const q = (s: string) => `data[${JSON.stringify(s)}]`;
  let body: string;
  if (name === 'identity') body = `return ${q(inputs[0] ?? '')}`;
  else if (name === 'sum') body = `return ${inputs.map(q).join(' + ') || '0'}`;
  else body = `return ${q(inputs[0] ?? '')} - ${inputs.slice(1).map(q).join(' - ') || '0'}`;
  return `def ${node}(data):\n    ${body}\n`;
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

function key(s: string): string {
  return PLAIN.test(s) && !RESERVED.test(s) ? s : JSON.stringify(s);
}

function scalar(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return key(v);
  return JSON.stringify(v);
}

function inline(v: unknown): string {
  return yaml.dump(v, { flowLevel: 0, lineWidth: 1000 }).trim();
}
