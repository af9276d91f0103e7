import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { isLearningError } from '../errors';
import { validateGraph } from './index';
import { analyseGraph } from './structure';
import { exportReviveYaml, importReviveYaml } from './yaml';

const dir = join(__dirname, '../../test/fixtures/revive');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');

type Meta = Record<string, unknown>;
/** REVIVE-relevant content of a YAML file, normalised for comparison. */
function reviveContent(text: string) {
  const meta = (yaml.load(text) as { metadata: Meta }).metadata;
  const columnsByDim: Record<string, unknown[]> = {};
  for (const c of meta['columns'] as Array<Record<string, Record<string, unknown>>>) {
    const [name, spec] = Object.entries(c)[0]!;
    (columnsByDim[spec['dim'] as string] ??= []).push({ name, ...spec });
  }
  const experts = Object.fromEntries(
    Object.entries((meta['expert_functions'] ?? {}) as Record<string, Record<string, string>>).map(([k, v]) => [k, v['node_function']]),
  );
  return {
    graph: meta['graph'],
    columnsByDim,
    tunable: meta['tunable'] ?? [],
    nodes: meta['nodes'] ?? {},
    experts,
    custom: meta['custom_nodes'] ?? {},
    version: meta['version'],
  };
}

describe('REVIVE YAML', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

  it.each(files)('%s: loads, exports with the same REVIVE content, and round-trips', (file) => {
    const text = fixture(file);
    const { graph } = importReviveYaml(text);
    const out = exportReviveYaml(graph);
    expect(reviveContent(out.yaml)).toEqual(reviveContent(text));
    const again = importReviveYaml(out.yaml).graph;
    expect(again).toEqual(graph);
    expect(validateGraph(graph).filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('infers roles like REVIVE (refrigeration)', () => {
    const { graph } = importReviveYaml(fixture('refrigeration.yaml'));
    const roles = Object.fromEntries(graph.nodes.map((n) => [n.name, n.role]));
    expect(roles).toEqual({ temperature: 'state', door_open: 'external', action: 'agent', next_temperature: 'environment' });
    const s = analyseGraph(graph);
    expect(s.order).toEqual(['action', 'next_temperature']);
    expect(s.nodes.get('next_temperature')!.inputs).toEqual(['action', 'temperature', 'door_open']);
    expect(s.nodes.get('next_temperature')!.dim).toBe(1);
    expect(s.transitions).toEqual([['temperature', 'next_temperature']]);
    expect(graph.nodes.find((n) => n.name === 'temperature')!.fields[0]).toMatchObject({ name: 'obs_temp', min: -20, max: 20 });
  });

  it('takes an output that reads a decision as the environment\'s response, not a second agent', () => {
    // sales follow the price: a learned environment node (a policy must not decide its own sales)
    const text = `metadata:
  graph:
    decision: [stock, season]
    sales: [stock, decision, season]
    next_stock: [stock, decision, sales]
  columns:
  - stock_level: {dim: stock, type: continuous, min: 0, max: 100}
  - season_index: {dim: season, type: continuous, min: -1.5, max: 1.5}
  - price: {dim: decision, type: category, values: [8, 10, 12, 14]}
  - units_sold: {dim: sales, type: continuous, min: 0, max: 80}
`;
    const roles = (g: ReturnType<typeof importReviveYaml>['graph']) => Object.fromEntries(g.nodes.map((n) => [n.name, n.role]));
    expect(roles(importReviveYaml(text).graph)).toEqual({ stock: 'state', season: 'external', decision: 'agent', sales: 'environment', next_stock: 'environment' });
    // a chained decision is named explicitly
    expect(roles(importReviveYaml(text, { agents: ['decision', 'sales'] }).graph)).toMatchObject({ decision: 'agent', sales: 'agent', next_stock: 'environment' });
    expect(analyseGraph(importReviveYaml(text).graph).order).toEqual(['decision', 'sales', 'next_stock']);
  });

  it('reads history nodes (ts) with their frames', () => {
    const { graph } = importReviveYaml(fixture('refrigeration_ts.yaml'));
    const ts = graph.nodes.find((n) => n.name === 'ts_temperature')!;
    expect(ts.role).toBe('state');
    expect(ts.history).toEqual({ of: 'temperature', steps: 5 });
    const s = analyseGraph(graph);
    expect(s.nodes.get('ts_temperature')!.dim).toBe(5);
    expect(s.nodes.get('next_ts_temperature')!.dim).toBe(5);
    expect(graph.nodes.find((n) => n.name === 'action')!.options).toEqual({ step_input: true });
  });

  it('reads tunable parameters, field types and expert functions', () => {
    const t = importReviveYaml(fixture('parameter_tuning.yaml')).graph;
    const p = t.nodes.find((n) => n.name === 'parameter')!;
    expect(p.role).toBe('tunable');
    expect(p.fields.map((f) => f.dataType)).toEqual(['continuous', 'discrete', 'category']);
    expect(p.fields[1]).toMatchObject({ min: -1, max: 1, count: 3 });
    expect(p.fields[2]).toMatchObject({ values: [3, 5, 10, 15], kind: 'int' });
    expect(validateGraph(t, { solution: 'tuning' })).toEqual([]);

    const e = importReviveYaml(fixture('expert_function.yaml'));
    expect(e.graph.nodes.find((n) => n.name === 'next_obs')!.function).toEqual({ kind: 'python', file: 'expert_function.py', function: 'dynamics' });
    expect(e.files).toEqual(['expert_function.py']);
    expect(e.graph.version).toBe('expert_function-20210902');
    expect(validateGraph(e.graph, { files: [] }).map((i) => i.code)).toContain('graph.functionFileMissing');

    const c = importReviveYaml(fixture('custom_node.yaml'));
    expect(c.graph.nodes.find((n) => n.name === 'engine_action')!.network).toEqual({ kind: 'python', file: 'custom_node.py', className: 'EngineNode' });
  });

  it('keeps Decisio-only information in its extension', () => {
    const { graph } = importReviveYaml(fixture('pendulum.yaml'));
    graph.nodes[0]!.label = '状态';
    graph.nodes[0]!.position = { x: 10, y: 20 };
    graph.nodes[0]!.fields[1]!.visibility = 'hidden';
    graph.nodes.push({ id: 'cost', name: 'cost', role: 'environment', tunable: false, fields: [{ name: 'c', dataType: 'continuous', kind: 'float', visibility: 'normal' }], function: { kind: 'builtin', name: 'sum' } });
    graph.edges.push({ id: 'a', source: 'states', target: 'cost' }, { id: 'b', source: 'actions', target: 'cost' });
    const out = exportReviveYaml(graph);
    expect(out.files['decisio_builtin.py']).toContain('def cost(data):\n    return data["states"] + data["actions"]');
    const again = importReviveYaml(out.yaml).graph;
    expect(again.nodes[0]!.label).toBe('状态');
    expect(again.nodes[0]!.position).toEqual({ x: 10, y: 20 });
    expect(again.nodes[0]!.fields[1]!.visibility).toBe('hidden');
    expect(again.nodes.find((n) => n.name === 'cost')!.function).toEqual({ kind: 'builtin', name: 'sum' });
  });

  it('reports malformed files with codes', () => {
    const code = (text: string) => {
      try {
        importReviveYaml(text);
        return 'ok';
      } catch (e) {
        return isLearningError(e) ? e.code : String(e);
      }
    };
    expect(code('a: [')).toBe('yaml.parse');
    expect(code('foo: 1')).toBe('yaml.noMetadata');
    expect(code('metadata:\n  columns: []')).toBe('yaml.noGraph');
    expect(code('metadata:\n  graph: {a: [b]}')).toBe('yaml.noColumns');
    expect(code('metadata:\n  graph: {a: [b]}\n  columns:\n  - x: {type: continuous}')).toBe('yaml.badColumn');
    expect(code('metadata:\n  graph: {a: [b]}\n  columns:\n  - x: {dim: a, type: weird}')).toBe('yaml.badType');
  });
});
