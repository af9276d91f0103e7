/**
 * The decision-graph editor, headless: a document (`DecisionGraph` of `@decisio/domain` plus
 * the uploaded Python files), commands that change it, undo/redo, validation mapped onto the
 * node or edge at fault, and dirty tracking. Components only render it and call commands.
 *
 * "Save only when editing is finished" (spec workflow §5): while a node's settings or code are
 * open (`beginEdit`), `saveCheck()` refuses with `editing`; `finishEdit()` ends it.
 */
import {
  GRAPH_SCHEMA_VERSION,
  isInputRole,
  validateGraph,
  type DecisionGraph,
  type GraphEdge,
  type GraphField,
  type GraphIssue,
  type GraphNode,
  type NodeFunction,
  type CustomNetwork,
  type NodeRole,
  type SolutionKind,
} from '@decisio/domain';
import { exportReviveYaml, importReviveYaml, type ImportYamlResult } from './yaml';

/** Line styles of the edges: bezier, straight, flowchart (step), state machine. */
export const LINE_STYLES = ['bezier', 'straight', 'step', 'state-machine'] as const;
export type LineStyle = (typeof LINE_STYLES)[number];

/** Why a connection was refused. */
export type ConnectRefusal = 'selfLoop' | 'duplicate' | 'intoInput' | 'unknownNode' | 'cycle';

/** Why saving is refused now. */
export type SaveRefusal = 'editing' | 'clean' | 'invalid';

/** A dataset column offered for dragging into a node. */
export interface ColumnOffer {
  name: string;
  dataType?: GraphField['dataType'];
  kind?: GraphField['kind'];
  min?: unknown;
  max?: unknown;
  count?: unknown;
  values?: unknown[];
  visibility?: GraphField['visibility'];
}

/** What the editor holds: the graph, the uploaded Python files (name -> source). */
export interface PatternDocument {
  graph: DecisionGraph;
  files: Record<string, string>;
}

/** Most undo steps kept. */
export const HISTORY_LIMIT = 100;

/** An empty graph document. */
export function emptyGraph(): DecisionGraph {
  return { schemaVersion: GRAPH_SCHEMA_VERSION, nodes: [], edges: [] };
}

const clone = <T>(v: T): T => structuredClone(v);
const snapshotOf = (d: PatternDocument) => JSON.stringify([d.graph, d.files]);

/** Default variable name prefix of a new node of a role. */
const ROLE_PREFIX: Record<NodeRole, string> = {
  state: 'state',
  agent: 'agent',
  environment: 'env',
  tunable: 'param',
  external: 'factor',
};

/** The editor state machine. Not thread-safe; one instance per open editor. */
export class PatternEditor {
  private doc: PatternDocument = { graph: emptyGraph(), files: {} };
  private past: PatternDocument[] = [];
  private future: PatternDocument[] = [];
  private saved = snapshotOf(this.doc);
  private editingCount = 0;
  private listeners = new Set<() => void>();
  private version = 0;
  private seq = 0;
  /** Solution type: which roles the graph needs. */
  solution: SolutionKind | undefined;
  lineStyle: LineStyle = 'bezier';

  constructor(doc?: Partial<PatternDocument>, options: { solution?: SolutionKind } = {}) {
    this.solution = options.solution;
    if (doc) this.load(doc);
  }

  // ---- observation -------------------------------------------------------------------------

  /** Calls `cb` after every change. Returns an unsubscribe function. */
  subscribe(cb: () => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** A number that grows on every change (for `useSyncExternalStore`). */
  getVersion(): number {
    return this.version;
  }

  private emit(): void {
    this.version += 1;
    for (const l of [...this.listeners]) l();
  }

  get graph(): DecisionGraph {
    return this.doc.graph;
  }

  get files(): Record<string, string> {
    return this.doc.files;
  }

  node(id: string): GraphNode | undefined {
    return this.doc.graph.nodes.find((n) => n.id === id);
  }

  // ---- loading, history, dirty ------------------------------------------------------------

  /** Replaces the document (e.g. after `solution/getPattern`); clears history; clean. */
  load(doc: Partial<PatternDocument>): void {
    this.doc = { graph: clone(doc.graph ?? emptyGraph()), files: { ...(doc.files ?? {}) } };
    this.past = [];
    this.future = [];
    this.saved = snapshotOf(this.doc);
    this.seq = this.doc.graph.nodes.length;
    this.emit();
  }

  /** Runs a change as one undo step. No step is recorded when nothing changed. */
  private change(fn: (doc: PatternDocument) => void): void {
    const before = clone(this.doc);
    const next = clone(this.doc);
    fn(next);
    if (snapshotOf(next) === snapshotOf(before)) return;
    this.past.push(before);
    if (this.past.length > HISTORY_LIMIT) this.past.shift();
    this.future = [];
    this.doc = next;
    this.emit();
  }

  canUndo(): boolean {
    return this.past.length > 0;
  }

  canRedo(): boolean {
    return this.future.length > 0;
  }

  undo(): boolean {
    const prev = this.past.pop();
    if (!prev) return false;
    this.future.push(this.doc);
    this.doc = prev;
    this.emit();
    return true;
  }

  redo(): boolean {
    const next = this.future.pop();
    if (!next) return false;
    this.past.push(this.doc);
    this.doc = next;
    this.emit();
    return true;
  }

  /** Whether the document differs from the last loaded or saved one. */
  isDirty(): boolean {
    return snapshotOf(this.doc) !== this.saved;
  }

  /** Marks the current document as saved. */
  markSaved(): void {
    this.saved = snapshotOf(this.doc);
    this.emit();
  }

  /** A node's settings or code are being edited (saving waits). Nested calls count. */
  beginEdit(): void {
    this.editingCount += 1;
    this.emit();
  }

  finishEdit(): void {
    this.editingCount = Math.max(0, this.editingCount - 1);
    this.emit();
  }

  isEditing(): boolean {
    return this.editingCount > 0;
  }

  // ---- nodes --------------------------------------------------------------------------------

  private freshName(prefix: string): string {
    const names = new Set(this.doc.graph.nodes.map((n) => n.name));
    let i = 1;
    while (names.has(`${prefix}_${i}`)) i += 1;
    return `${prefix}_${i}`;
  }

  private freshId(): string {
    const ids = new Set(this.doc.graph.nodes.map((n) => n.id));
    let id: string;
    do {
      this.seq += 1;
      id = `n${this.seq}`;
    } while (ids.has(id));
    return id;
  }

  /** Adds a node of `role`; returns its id. A name is made up when none is given. */
  addNode(role: NodeRole, init: { name?: string; label?: string; position?: { x: number; y: number }; fields?: ColumnOffer[] } = {}): string {
    const id = this.freshId();
    const name = init.name ?? this.freshName(ROLE_PREFIX[role]);
    this.change((d) => {
      const node: GraphNode = { id, name, role, fields: (init.fields ?? []).map(toField), tunable: role === 'tunable' };
      if (init.label) node.label = init.label;
      if (init.position) node.position = { ...init.position };
      d.graph.nodes.push(node);
    });
    return id;
  }

  /** Removes a node and its edges. */
  removeNode(id: string): void {
    this.change((d) => {
      d.graph.nodes = d.graph.nodes.filter((n) => n.id !== id);
      d.graph.edges = d.graph.edges.filter((e) => e.source !== id && e.target !== id);
    });
  }

  /** Edits name, label or role of a node. Making a node an input drops its incoming edges and function. */
  updateNode(id: string, patch: { name?: string; label?: string; role?: NodeRole }): void {
    this.change((d) => {
      const n = d.graph.nodes.find((x) => x.id === id);
      if (!n) return;
      if (patch.name !== undefined) n.name = patch.name;
      if (patch.label !== undefined) {
        if (patch.label) n.label = patch.label;
        else delete n.label;
      }
      if (patch.role !== undefined && patch.role !== n.role) {
        n.role = patch.role;
        n.tunable = patch.role === 'tunable';
        if (isInputRole(patch.role)) {
          d.graph.edges = d.graph.edges.filter((e) => e.target !== id);
          delete n.function;
          delete n.network;
        }
      }
    });
  }

  /** Marks a node as a tunable parameter (or back to an external factor). */
  setTunable(id: string, tunable: boolean): void {
    const n = this.node(id);
    if (!n) return;
    this.updateNode(id, { role: tunable ? 'tunable' : n.role === 'tunable' ? 'external' : n.role });
  }

  /** Moves nodes (one undo step, e.g. at the end of a drag or after auto layout). */
  moveNodes(positions: Record<string, { x: number; y: number }>): void {
    this.change((d) => {
      for (const n of d.graph.nodes) {
        const p = positions[n.id];
        if (p) n.position = { x: Math.round(p.x), y: Math.round(p.y) };
      }
    });
  }

  // ---- edges --------------------------------------------------------------------------------

  /** Why `source -> target` cannot be drawn, or `undefined` when it can. */
  connectRefusal(source: string, target: string): ConnectRefusal | undefined {
    const s = this.node(source);
    const t = this.node(target);
    if (!s || !t) return 'unknownNode';
    if (s.id === t.id) return 'selfLoop';
    if (isInputRole(t.role)) return 'intoInput';
    if (this.doc.graph.edges.some((e) => e.source === source && e.target === target)) return 'duplicate';
    // a path target ~> source would close a cycle
    const seen = new Set([target]);
    const queue = [target];
    while (queue.length > 0) {
      const u = queue.shift()!;
      if (u === source) return 'cycle';
      for (const e of this.doc.graph.edges)
        if (e.source === u && !seen.has(e.target)) {
          seen.add(e.target);
          queue.push(e.target);
        }
    }
    return undefined;
  }

  /** Draws `source -> target` (source becomes an input of target). Returns the edge id or the refusal. */
  connect(source: string, target: string): { ok: true; edgeId: string } | { ok: false; reason: ConnectRefusal } {
    const reason = this.connectRefusal(source, target);
    if (reason) return { ok: false, reason };
    const edgeId = `${source}->${target}`;
    this.change((d) => {
      d.graph.edges.push({ id: edgeId, source, target });
    });
    return { ok: true, edgeId };
  }

  removeEdge(id: string): void {
    this.change((d) => {
      d.graph.edges = d.graph.edges.filter((e) => e.id !== id);
    });
  }

  // ---- fields (field division and field settings) -------------------------------------------

  /** Adds dataset columns to a node (drag from the field list). Columns already in the node are skipped. */
  addFields(nodeId: string, columns: readonly ColumnOffer[]): void {
    this.change((d) => {
      const n = d.graph.nodes.find((x) => x.id === nodeId);
      if (!n) return;
      for (const c of columns) if (!n.fields.some((f) => f.name === c.name)) n.fields.push(toField(c));
    });
  }

  /** Moves a field from one node to another (field division). */
  moveField(fromNodeId: string, index: number, toNodeId: string): void {
    if (fromNodeId === toNodeId) return;
    this.change((d) => {
      const from = d.graph.nodes.find((x) => x.id === fromNodeId);
      const to = d.graph.nodes.find((x) => x.id === toNodeId);
      const f = from?.fields[index];
      if (!from || !to || !f) return;
      from.fields.splice(index, 1);
      if (!to.fields.some((x) => x.name === f.name)) to.fields.push(f);
    });
  }

  removeField(nodeId: string, index: number): void {
    this.change((d) => {
      d.graph.nodes.find((x) => x.id === nodeId)?.fields.splice(index, 1);
    });
  }

  /**
   * Changes a field's settings. Raw user input is kept (validation tells "not a number" apart
   * from "missing"); switching the data type drops the settings of the other types.
   */
  updateField(nodeId: string, index: number, patch: Partial<GraphField>): void {
    this.change((d) => {
      const f = d.graph.nodes.find((x) => x.id === nodeId)?.fields[index];
      if (!f) return;
      if (patch.dataType && patch.dataType !== f.dataType) {
        if (patch.dataType === 'category') {
          delete f.min;
          delete f.max;
          delete f.count;
          f.values ??= [];
        } else {
          delete f.values;
          if (patch.dataType === 'continuous') delete f.count;
        }
      }
      Object.assign(f, patch);
      for (const k of ['min', 'max', 'count'] as const) if (f[k] === '' || f[k] === null) delete f[k];
    });
  }

  // ---- node functions and custom networks ---------------------------------------------------

  /**
   * Sets or clears a node's function. A Python function's code is the file's source: nodes
   * sharing a file share it, and it is kept in `files` too.
   */
  setFunction(nodeId: string, fn: NodeFunction | undefined): void {
    this.change((d) => {
      const n = d.graph.nodes.find((x) => x.id === nodeId);
      if (!n) return;
      if (!fn) {
        delete n.function;
        return;
      }
      const next = clone(fn);
      if (next.kind === 'python') {
        const code = next.code ?? d.files[next.file];
        if (code !== undefined) {
          next.code = code;
          setFileCode(d, next.file, code);
        }
      }
      n.function = next;
    });
  }

  /** Edits the source of a node's Python function (the whole file). */
  setFunctionCode(nodeId: string, code: string): void {
    this.change((d) => {
      const fn = d.graph.nodes.find((x) => x.id === nodeId)?.function;
      if (fn?.kind !== 'python') return;
      setFileCode(d, fn.file, code);
    });
  }

  setNetwork(nodeId: string, network: CustomNetwork | undefined): void {
    this.change((d) => {
      const n = d.graph.nodes.find((x) => x.id === nodeId);
      if (!n) return;
      if (network) n.network = clone(network);
      else delete n.network;
    });
  }

  /** Adds or replaces uploaded Python files; node functions that use them take their code. */
  putFiles(files: Record<string, string>): void {
    this.change((d) => {
      for (const [name, code] of Object.entries(files)) setFileCode(d, name, code);
    });
  }

  // ---- YAML ---------------------------------------------------------------------------------

  /**
   * Builds the graph from a REVIVE YAML (replacing the current one, as one undo step) and the
   * Python files uploaded with it. Throws `PatternYamlError` on an unreadable file, leaving
   * the document as it was.
   * @returns the import result and the referenced Python files that were not uploaded.
   */
  importYaml(text: string, files: Record<string, string> = {}): ImportYamlResult & { missingFiles: string[] } {
    const result = importReviveYaml(text);
    this.change((d) => {
      d.graph = clone(result.graph);
      d.files = { ...files };
      for (const n of d.graph.nodes)
        if (n.function?.kind === 'python' && files[n.function.file] !== undefined) n.function.code = files[n.function.file];
    });
    this.seq = Math.max(this.seq, this.doc.graph.nodes.length);
    return { ...result, missingFiles: result.files.filter((f) => files[f] === undefined) };
  }

  /** The document as REVIVE YAML plus the files to write beside it. */
  exportYaml(): { yaml: string; files: Record<string, string> } {
    const out = exportReviveYaml(this.doc.graph);
    return { yaml: out.yaml, files: { ...this.doc.files, ...out.files } };
  }

  // ---- validation ---------------------------------------------------------------------------

  /** Every issue of the current document, with the rules saving applies (code required, files uploaded). */
  issues(): GraphIssue[] {
    return validateGraph(this.doc.graph, { solution: this.solution, requireCode: true, files: this.fileNames() });
  }

  private fileNames(): string[] {
    const names = new Set(Object.keys(this.doc.files));
    for (const n of this.doc.graph.nodes) if (n.function?.kind === 'python' && n.function.code?.trim()) names.add(n.function.file);
    return [...names];
  }

  /** Issues grouped by the element at fault: `graph`, `node:<id>` (fields included), `edge:<id>`. */
  issuesByTarget(): Map<string, GraphIssue[]> {
    const map = new Map<string, GraphIssue[]>();
    for (const i of this.issues()) {
      const key = issueKey(i);
      const list = map.get(key) ?? [];
      list.push(i);
      map.set(key, list);
    }
    return map;
  }

  /** Edge status shown on the canvas: `invalid` (an issue points at it), `start` (from a data input), `effect`. */
  edgeStatus(edge: GraphEdge, byTarget = this.issuesByTarget()): 'invalid' | 'start' | 'effect' {
    if ((byTarget.get(`edge:${edge.id}`) ?? []).some((i) => i.severity === 'error')) return 'invalid';
    const s = this.node(edge.source);
    return s && isInputRole(s.role) ? 'start' : 'effect';
  }

  /** Whether saving is allowed now, and why not. */
  saveCheck(): { ok: true } | { ok: false; reason: SaveRefusal; issues?: GraphIssue[] } {
    if (this.isEditing()) return { ok: false, reason: 'editing' };
    if (!this.isDirty()) return { ok: false, reason: 'clean' };
    const errors = this.issues().filter((i) => i.severity === 'error');
    if (errors.length > 0) return { ok: false, reason: 'invalid', issues: errors };
    return { ok: true };
  }

  /** The body of `solution/setPattern` (without `solutionId`): the graph and every Python file it needs. */
  savePayload(): PatternDocument {
    const files = { ...this.doc.files };
    for (const n of this.doc.graph.nodes) if (n.function?.kind === 'python' && n.function.code !== undefined) files[n.function.file] = n.function.code;
    return { graph: clone(this.doc.graph), files };
  }
}

/** Key of the element an issue is shown on (fields show on their node). */
export function issueKey(i: GraphIssue): string {
  const t = i.target;
  if (t.kind === 'edge') return `edge:${t.edgeId}`;
  if (t.kind === 'node' || t.kind === 'field') return `node:${t.nodeId}`;
  return 'graph';
}

function setFileCode(d: PatternDocument, file: string, code: string): void {
  d.files[file] = code;
  for (const n of d.graph.nodes) if (n.function?.kind === 'python' && n.function.file === file) n.function.code = code;
}

/** A graph field from a dataset column (settings taken over when the dataset has them). */
export function toField(c: ColumnOffer): GraphField {
  const f: GraphField = { name: c.name, dataType: c.dataType ?? 'continuous', kind: c.kind ?? 'float', visibility: c.visibility ?? 'normal' };
  if (f.dataType === 'category') f.values = [...(c.values ?? [])];
  else {
    if (c.min !== undefined && c.min !== null) f.min = c.min;
    if (c.max !== undefined && c.max !== null) f.max = c.max;
    if (f.dataType === 'discrete' && c.count !== undefined && c.count !== null) f.count = c.count;
  }
  return f;
}
