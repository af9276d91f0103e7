import { describe, expect, it } from 'vitest';
import { PatternEditor, issueKey } from './editor';
import { FRIDGE_EXPERT_YAML, FRIDGE_PY, FRIDGE_YAML } from './fixtures';
import { PatternYamlError } from './yaml';
import { EDGE_TYPE } from './edges';
import { layoutGraph } from './layout';

/** state -> agent -> next_state, the smallest valid policy graph. */
function buildTiny(ed: PatternEditor) {
  const s = ed.addNode('state', { name: 'temp', fields: [{ name: 'obs_temp', min: -20, max: 20 }] });
  const a = ed.addNode('agent', { name: 'action', fields: [{ name: 'power', min: 0, max: 1 }] });
  const n = ed.addNode('environment', { name: 'next_temp', fields: [{ name: 'next_obs_temp' }] });
  expect(ed.connect(s, a)).toMatchObject({ ok: true });
  expect(ed.connect(a, n)).toMatchObject({ ok: true });
  expect(ed.connect(s, n)).toMatchObject({ ok: true });
  return { s, a, n };
}

describe('PatternEditor', () => {
  it('adds, connects and removes nodes; a valid graph has no errors', () => {
    const ed = new PatternEditor(undefined, { solution: 'policy' });
    const { s, a, n } = buildTiny(ed);
    expect(ed.graph.nodes.map((x) => x.name)).toEqual(['temp', 'action', 'next_temp']);
    expect(ed.issues().filter((i) => i.severity === 'error')).toEqual([]);
    ed.removeNode(a);
    expect(ed.graph.nodes).toHaveLength(2);
    expect(ed.graph.edges.map((e) => e.id)).toEqual([`${s}->${n}`]);
  });

  it('refuses self loops, duplicates, inputs into data nodes and cycles', () => {
    const ed = new PatternEditor();
    const { s, a, n } = buildTiny(ed);
    expect(ed.connect(a, a)).toEqual({ ok: false, reason: 'selfLoop' });
    expect(ed.connect(s, a)).toEqual({ ok: false, reason: 'duplicate' });
    expect(ed.connect(a, s)).toEqual({ ok: false, reason: 'intoInput' });
    expect(ed.connect(n, a)).toEqual({ ok: false, reason: 'cycle' });
    expect(ed.connect('nope', a)).toEqual({ ok: false, reason: 'unknownNode' });
  });

  it('maps validation issues onto the node, field or edge at fault', () => {
    const ed = new PatternEditor(undefined, { solution: 'policy' });
    const { s, a, n } = buildTiny(ed);
    ed.updateNode(a, { name: 'temp' });
    ed.updateField(s, 0, { min: 'x' });
    const by = ed.issuesByTarget();
    expect(by.get(`node:${a}`)?.map((i) => i.code)).toContain('graph.nodeNameDuplicate');
    expect(by.get(`node:${s}`)?.map((i) => i.code)).toEqual(expect.arrayContaining(['graph.nodeNameDuplicate', 'graph.fieldMinNotNumber']));
    // an edge into a data input is drawn by a YAML or an old document: it is marked invalid
    ed.load({ graph: { ...ed.graph, edges: [...ed.graph.edges, { id: 'bad', source: n, target: s }] } });
    const edge = ed.graph.edges.find((e) => e.id === 'bad')!;
    expect(ed.issuesByTarget().get('edge:bad')?.map((i) => i.code)).toContain('graph.edgeIntoInput');
    expect(ed.edgeStatus(edge)).toBe('invalid');
    expect(ed.edgeStatus(ed.graph.edges[0]!)).toBe('start');
    expect(ed.edgeStatus(ed.graph.edges.find((e) => e.source === a)!)).toBe('effect');
    expect(issueKey({ code: 'graph.noAgent', severity: 'error', target: { kind: 'graph' }, params: {} })).toBe('graph');
  });

  it('needs an agent for policy search and a tunable parameter for tuning', () => {
    const ed = new PatternEditor(undefined, { solution: 'tuning' });
    const { a } = buildTiny(ed);
    expect(ed.issues().map((i) => i.code)).toContain('graph.noTunable');
    const p = ed.addNode('external', { name: 'speed', fields: [{ name: 'v', min: 0, max: 3 }] });
    ed.setTunable(p, true);
    expect(ed.node(p)!.role).toBe('tunable');
    expect(ed.node(p)!.tunable).toBe(true);
    ed.connect(p, a);
    expect(ed.issues().map((i) => i.code)).not.toContain('graph.noTunable');
    ed.setTunable(p, false);
    expect(ed.node(p)!.role).toBe('external');
  });

  it('divides fields between nodes and edits field settings', () => {
    const ed = new PatternEditor();
    const a = ed.addNode('state', { name: 'obs' });
    const b = ed.addNode('external', { name: 'factor' });
    ed.addFields(a, [{ name: 'x', min: 0, max: 1 }, { name: 'y', dataType: 'category', values: [0, 1] }]);
    ed.addFields(a, [{ name: 'x' }]);
    expect(ed.node(a)!.fields.map((f) => f.name)).toEqual(['x', 'y']);
    ed.moveField(a, 1, b);
    expect(ed.node(a)!.fields.map((f) => f.name)).toEqual(['x']);
    expect(ed.node(b)!.fields).toEqual([{ name: 'y', dataType: 'category', kind: 'float', visibility: 'normal', values: [0, 1] }]);
    ed.updateField(a, 0, { dataType: 'discrete', min: 0, max: 10, count: 0 });
    expect(ed.issues().map((i) => i.code)).toContain('graph.fieldCountInvalid');
    ed.updateField(a, 0, { count: 11 });
    expect(ed.issues().map((i) => i.code)).not.toContain('graph.fieldCountInvalid');
    ed.updateField(a, 0, { min: 5, max: 1 });
    expect(ed.issues().map((i) => i.code)).toContain('graph.fieldMinNotLessThanMax');
    ed.updateField(b, 0, { values: ['a'] });
    expect(ed.issues().map((i) => i.code)).toContain('graph.fieldValuesNotNumbers');
    ed.updateField(b, 0, { dataType: 'continuous' });
    expect(ed.node(b)!.fields[0]!.values).toBeUndefined();
    ed.removeField(b, 0);
    expect(ed.node(b)!.fields).toEqual([]);
    expect(ed.issuesByTarget().get(`node:${b}`)?.map((i) => i.code)).toContain('graph.nodeNoFields');
  });

  it('keeps node function code, requires it before saving, and keeps one node for training', () => {
    const ed = new PatternEditor(undefined, { solution: 'policy' });
    const { a, n } = buildTiny(ed);
    ed.setFunction(n, { kind: 'python', file: 'expert.py', function: 'next_temp' });
    expect(ed.issues().map((i) => i.code)).toEqual(expect.arrayContaining(['graph.functionCodeRequired']));
    ed.setFunctionCode(n, 'def next_temp(data):\n    return data["temp"]\n');
    expect(ed.issues().map((i) => i.code)).not.toContain('graph.functionCodeRequired');
    expect(ed.files['expert.py']).toContain('def next_temp');
    ed.setFunction(a, { kind: 'builtin', name: 'identity' });
    expect(ed.issues().map((i) => i.code)).toContain('graph.noTrainableNode');
    ed.setFunction(a, undefined);
    ed.setFunction(n, { kind: 'python', file: 'expert.py', function: '1bad' });
    expect(ed.issues().map((i) => i.code)).toContain('graph.functionNameInvalid');
    ed.setNetwork(a, { kind: 'mlp', hidden: [64, 64], activation: 'relu' });
    expect(ed.node(a)!.network).toEqual({ kind: 'mlp', hidden: [64, 64], activation: 'relu' });
    ed.setNetwork(a, undefined);
    expect(ed.node(a)!.network).toBeUndefined();
  });

  it('undoes and redoes every command, and drops the redo branch on a new change', () => {
    const ed = new PatternEditor();
    expect(ed.canUndo()).toBe(false);
    const a = ed.addNode('state', { name: 'a' });
    ed.updateNode(a, { name: 'b' });
    ed.moveNodes({ [a]: { x: 10.4, y: 20.6 } });
    expect(ed.node(a)!.position).toEqual({ x: 10, y: 21 });
    expect(ed.undo()).toBe(true);
    expect(ed.node(a)!.position).toBeUndefined();
    expect(ed.undo()).toBe(true);
    expect(ed.node(a)!.name).toBe('a');
    expect(ed.redo()).toBe(true);
    expect(ed.node(a)!.name).toBe('b');
    ed.updateNode(a, { label: 'Temperature' });
    expect(ed.canRedo()).toBe(false);
    expect(ed.redo()).toBe(false);
    // a change that changes nothing records no step
    const before = ed.getVersion();
    ed.updateNode(a, { label: 'Temperature' });
    expect(ed.getVersion()).toBe(before);
    ed.undo();
    ed.undo();
    ed.undo();
    expect(ed.graph.nodes).toEqual([]);
    expect(ed.undo()).toBe(false);
  });

  it('tracks dirtiness and saves only when editing is finished', () => {
    const ed = new PatternEditor(undefined, { solution: 'policy' });
    expect(ed.saveCheck()).toEqual({ ok: false, reason: 'clean' });
    const { a } = buildTiny(ed);
    expect(ed.isDirty()).toBe(true);
    ed.beginEdit();
    expect(ed.saveCheck()).toEqual({ ok: false, reason: 'editing' });
    ed.finishEdit();
    expect(ed.saveCheck()).toEqual({ ok: true });
    ed.updateNode(a, { name: '' });
    const check = ed.saveCheck();
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toBe('invalid');
    ed.undo();
    ed.markSaved();
    expect(ed.isDirty()).toBe(false);
    ed.updateNode(a, { label: 'x' });
    ed.undo();
    expect(ed.isDirty()).toBe(false);
  });

  it('builds from a REVIVE YAML with its Python file, and reports a missing one', () => {
    const ed = new PatternEditor(undefined, { solution: 'policy' });
    const r = ed.importYaml(FRIDGE_YAML);
    expect(Object.fromEntries(ed.graph.nodes.map((n) => [n.name, n.role]))).toEqual({
      temperature: 'state',
      door_open: 'external',
      action: 'agent',
      next_temperature: 'environment',
    });
    expect(r.missingFiles).toEqual([]);
    expect(ed.issues().filter((i) => i.severity === 'error')).toEqual([]);

    const missing = ed.importYaml(FRIDGE_EXPERT_YAML);
    expect(missing.missingFiles).toEqual(['expert_function.py']);
    expect(ed.issues().map((i) => i.code)).toContain('graph.functionCodeRequired');
    const ok = ed.importYaml(FRIDGE_EXPERT_YAML, { 'expert_function.py': FRIDGE_PY });
    expect(ok.missingFiles).toEqual([]);
    expect(ed.issues().filter((i) => i.severity === 'error')).toEqual([]);
    const payload = ed.savePayload();
    expect(payload.files['expert_function.py']).toBe(FRIDGE_PY);
    // the export is REVIVE YAML again
    const out = ed.exportYaml();
    expect(out.yaml).toContain('next_temperature:');
    expect(out.files['expert_function.py']).toBe(FRIDGE_PY);
    // one undo step per import
    ed.undo();
    expect(ed.graph.nodes.find((n) => n.name === 'next_temperature')!.function).toMatchObject({ kind: 'python', file: 'expert_function.py' });
  });

  it('refuses an unreadable YAML and keeps the document', () => {
    const ed = new PatternEditor();
    ed.addNode('state', { name: 'keep' });
    expect(() => ed.importYaml('metadata: [')).toThrow(PatternYamlError);
    expect(() => ed.importYaml('foo: 1')).toThrow(expect.objectContaining({ code: 'yaml.noMetadata' }));
    expect(ed.graph.nodes.map((n) => n.name)).toEqual(['keep']);
  });

  it('maps line styles to edge types and lays the graph out left to right', async () => {
    expect(EDGE_TYPE).toEqual({ bezier: 'default', straight: 'straight', step: 'smoothstep', 'state-machine': 'floating' });
    const ed = new PatternEditor();
    const { s, a, n } = buildTiny(ed);
    const pos = await layoutGraph(ed.graph);
    expect(Object.keys(pos).sort()).toEqual([s, a, n].sort());
    expect(pos[s]!.x).toBeLessThan(pos[a]!.x);
    expect(pos[a]!.x).toBeLessThan(pos[n]!.x);
  });
});
