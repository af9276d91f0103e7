import { describe, expect, it } from 'vitest';
import { GRAPH_ISSUE_CODES, GRAPH_ISSUE_MESSAGES, graphIssueMessage } from './issues';
import { parseDecisionGraph, type DecisionGraph, type GraphField, type GraphNode } from './model';
import { topologicalOrder } from './topology';
import { validateGraph } from './validate';

const cont = (name: string, min?: unknown, max?: unknown): GraphField => ({
  name,
  dataType: 'continuous',
  kind: 'float',
  visibility: 'normal',
  min,
  max,
});
const node = (name: string, role: GraphNode['role'], fields: GraphField[] = [cont(`${name}_0`)], extra: Partial<GraphNode> = {}): GraphNode => ({
  id: name,
  name,
  role,
  fields,
  tunable: role === 'tunable',
  ...extra,
});
const edge = (source: string, target: string) => ({ id: `${source}->${target}`, source, target });

function base(): DecisionGraph {
  return {
    schemaVersion: 1,
    nodes: [node('obs', 'state'), node('action', 'agent'), node('next_obs', 'environment', [])],
    edges: [edge('obs', 'action'), edge('obs', 'next_obs'), edge('action', 'next_obs')],
  };
}
const codes = (g: DecisionGraph, o = {}) => validateGraph(g, o).map((i) => i.code);

describe('validateGraph', () => {
  it('accepts a minimal valid graph', () => {
    expect(validateGraph(base(), { solution: 'policy' })).toEqual([]);
  });

  it('rejects an empty graph', () => {
    expect(codes({ schemaVersion: 1, nodes: [], edges: [] })).toEqual(['graph.empty']);
  });

  it('requires unique, valid node names', () => {
    const g = base();
    g.nodes.push(node('', 'external'), node('9x', 'external'), { ...node('obs', 'external'), id: 'obs2' });
    const issues = validateGraph(g);
    expect(issues.map((i) => i.code)).toEqual(
      expect.arrayContaining(['graph.nodeNameRequired', 'graph.nodeNameInvalid', 'graph.nodeNameDuplicate']),
    );
    expect(issues.find((i) => i.code === 'graph.nodeNameDuplicate')?.target).toEqual({ kind: 'node', nodeId: 'obs' });
  });

  it('checks field settings and points at the field', () => {
    const g = base();
    g.nodes[0]!.fields = [
      cont('a', 'x', 1),
      cont('b', 2, 1),
      { name: 'c', dataType: 'discrete', kind: 'int', visibility: 'normal', min: 0, max: 3, count: 2.5 },
      { name: 'd', dataType: 'discrete', kind: 'int', visibility: 'normal', min: 0, count: 3 },
      { name: 'e', dataType: 'category', kind: 'int', visibility: 'normal', values: [] },
      { name: 'f', dataType: 'category', kind: 'int', visibility: 'normal', values: [1, 'two'] },
      { name: 'f', dataType: 'category', kind: 'int', visibility: 'normal', values: ['1', 1] },
    ];
    const issues = validateGraph(g);
    const got = issues.map((i) => [i.code, i.target.kind === 'field' ? i.target.fieldIndex : -1]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['graph.fieldMinNotNumber', 0],
        ['graph.fieldMinNotLessThanMax', 1],
        ['graph.fieldCountInvalid', 2],
        ['graph.fieldBoundsRequired', 3],
        ['graph.fieldValuesRequired', 4],
        ['graph.fieldValuesNotNumbers', 5],
        ['graph.fieldValuesDuplicate', 6],
        ['graph.fieldNameDuplicate', 6],
      ]),
    );
  });

  it('requires fields unless inherited', () => {
    const g = base();
    g.nodes[1]!.fields = [];
    expect(codes(g)).toContain('graph.nodeNoFields');
    expect(codes(base())).not.toContain('graph.nodeNoFields');
  });

  it('names the cycle', () => {
    const g = base();
    g.nodes.push(node('a', 'environment'), node('b', 'environment'));
    g.edges.push(edge('obs', 'a'), edge('a', 'b'), edge('b', 'a'));
    const issue = validateGraph(g).find((i) => i.code === 'graph.cycle');
    expect(issue?.params['cycle']).toBe('a → b → a');
    expect(graphIssueMessage(issue!, 'en-US')).toBe('The graph has a cycle: a → b → a');
    expect(graphIssueMessage(issue!, 'zh-CN')).toContain('a → b → a');
  });

  it('orders nodes topologically', () => {
    const r = topologicalOrder(base());
    expect(r.ok && r.order.map((n) => n.name)).toEqual(['obs', 'action', 'next_obs']);
  });

  it('requires initial and final states to be connected', () => {
    const g = base();
    g.edges = [edge('obs', 'action'), edge('action', 'next_obs')];
    expect(codes(g)).not.toContain('graph.stateNotConnected');
    g.nodes.push(node('u', 'external'));
    g.edges = [edge('obs', 'action'), edge('u', 'next_obs')];
    expect(codes(g)).toContain('graph.stateNotConnected');
    const g2 = base();
    g2.nodes = g2.nodes.filter((n) => n.name !== 'next_obs');
    g2.edges = [edge('obs', 'action')];
    expect(codes(g2)).toContain('graph.stateWithoutNext');
  });

  it('needs an agent, a tunable parameter and a trainable node per solution', () => {
    const g = base();
    g.nodes[1]!.role = 'environment';
    expect(codes(g, { solution: 'policy' })).toContain('graph.noAgent');
    expect(codes(base(), { solution: 'tuning' })).toContain('graph.noTunable');
    const t = base();
    t.nodes.push(node('p', 'tunable'));
    t.edges.push(edge('p', 'action'));
    expect(codes(t, { solution: 'tuning' })).toEqual([]);
    const f = base();
    for (const n of f.nodes) if (n.role !== 'state') n.function = { kind: 'builtin', name: 'identity' };
    expect(codes(f)).toContain('graph.noTrainableNode');
  });

  it('requires code and uploaded files for python functions', () => {
    const g = base();
    g.nodes[2]!.function = { kind: 'python', file: 'expert.py', function: 'dynamics' };
    expect(codes(g, { requireCode: true, files: ['other.py'] })).toEqual(
      expect.arrayContaining(['graph.functionCodeRequired', 'graph.functionFileMissing']),
    );
    g.nodes[2]!.function = { kind: 'python', file: 'expert.py', function: 'dynamics', code: 'def dynamics(d): pass' };
    expect(codes(g, { requireCode: true, files: ['expert.py'] })).toEqual([]);
  });

  it('rejects edges into inputs and unknown nodes', () => {
    const g = base();
    g.edges.push(edge('action', 'obs'), { id: 'x', source: 'nope', target: 'obs' });
    const c = codes(g);
    expect(c).toContain('graph.edgeIntoInput');
    expect(c).toContain('graph.edgeUnknownNode');
  });

  it('warns, without blocking, when an agent reads another agent\'s decision', () => {
    const g = base();
    g.nodes.push(node('sales', 'agent'));
    g.edges.push(edge('obs', 'sales'), edge('action', 'sales'), edge('sales', 'next_obs'));
    const issues = validateGraph(g, { solution: 'policy' });
    expect(issues).toEqual([expect.objectContaining({ code: 'graph.agentReadsAgent', severity: 'warning', target: { kind: 'node', nodeId: 'sales' }, params: { name: 'sales', source: 'action' } })]);
    expect(graphIssueMessage(issues[0]!, 'en-US')).toContain('make it an environment node');
    // as the environment's response it is fine
    g.nodes.find((n) => n.name === 'sales')!.role = 'environment';
    expect(validateGraph(g, { solution: 'policy' })).toEqual([]);
  });

  it('has both languages for every code', () => {
    for (const c of GRAPH_ISSUE_CODES) {
      expect(GRAPH_ISSUE_MESSAGES['en-US'][c]).toBeTruthy();
      expect(GRAPH_ISSUE_MESSAGES['zh-CN'][c]).toBeTruthy();
      const params = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(params(GRAPH_ISSUE_MESSAGES['zh-CN'][c])).toEqual(params(GRAPH_ISSUE_MESSAGES['en-US'][c]));
    }
  });

  it('migrates a version 0 document', () => {
    const g = parseDecisionGraph({ nodes: [{ id: 'a', name: 'a', role: 'state' }] });
    expect(g.schemaVersion).toBe(1);
    expect(g.edges).toEqual([]);
    expect(g.nodes[0]!.fields).toEqual([]);
  });
});
