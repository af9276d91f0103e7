/**
 * The canvas of the decision-graph editor (React Flow, loaded with `import()`): nodes with their
 * role, fields and problems; edges in the chosen line style coloured by status; dragging fields
 * of the dataset onto nodes or onto the canvas; connecting; deleting with the Delete key.
 * Every change goes through the headless {@link PatternEditor}.
 */
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  Background,
  BaseEdge,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  applyNodeChanges,
  useInternalNode,
  useReactFlow,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeChange,
  type NodeProps,
} from '@xyflow/react';
import { Tag } from '@blueprintjs/core';
import { graphIssueMessage, type GraphIssue, type NodeRole } from '@decisio/domain';
import { useTheme } from '@decisio/sdk-plugin';
import type { ColumnOffer, PatternEditor } from '../model/editor';
import { EDGE_STATUS_CLASS, EDGE_TYPE } from '../model/edges';
import { usePatternT } from '../i18n';
import { FIELD_MIME } from './drag';


interface DecisionNodeData extends Record<string, unknown> {
  name: string;
  label?: string;
  role: NodeRole;
  roleText: string;
  fields: string[];
  functionText?: string;
  problems: string[];
  isInput: boolean;
}

type DecisionFlowNode = Node<DecisionNodeData, 'decision'>;

const ROLE_INTENT: Record<NodeRole, 'primary' | 'success' | 'warning' | 'none' | 'danger'> = {
  state: 'primary',
  agent: 'success',
  environment: 'warning',
  tunable: 'danger',
  external: 'none',
};

function DecisionNode({ data, selected }: NodeProps<DecisionFlowNode>) {
  const bad = data.problems.length > 0;
  return (
    <div
      className={`dc-pattern-node dc-pattern-role-${data.role}${selected ? ' is-selected' : ''}${bad ? ' has-problems' : ''}`}
      title={bad ? data.problems.join('\n') : undefined}
      data-testid={`pattern-node-${data.name}`}
    >
      {!data.isInput && <Handle type="target" position={Position.Left} />}
      <div className="dc-pattern-node-head">
        <strong>{data.label || data.name}</strong>
        <Tag minimal intent={ROLE_INTENT[data.role]}>
          {data.roleText}
        </Tag>
      </div>
      {data.label && <div className="dc-pattern-node-var">{data.name}</div>}
      <div className="dc-pattern-node-fields">
        {data.fields.slice(0, 4).join(', ')}
        {data.fields.length > 4 ? ` +${data.fields.length - 4}` : ''}
      </div>
      {data.functionText && <div className="dc-pattern-node-fn">ƒ {data.functionText}</div>}
      {bad && (
        <div className="dc-pattern-node-problem" role="alert">
          {data.problems[0]}
          {data.problems.length > 1 ? ` (+${data.problems.length - 1})` : ''}
        </div>
      )}
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

/** Where the line between the centres of two boxes leaves the first box. */
function borderPoint(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number }) {
  const cx = a.x + a.w / 2;
  const cy = a.y + a.h / 2;
  const dx = b.x - cx;
  const dy = b.y - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  const s = Math.min(Math.abs(a.w / 2 / (dx || 1e-9)), Math.abs(a.h / 2 / (dy || 1e-9)));
  return { x: cx + dx * s, y: cy + dy * s };
}

/** State-machine edge: a straight line from border to border of the two nodes. */
function FloatingEdge({ id, source, target, markerEnd, style, label }: EdgeProps) {
  const s = useInternalNode(source);
  const t = useInternalNode(target);
  if (!s || !t) return null;
  const box = (n: NonNullable<typeof s>) => ({
    x: n.internals.positionAbsolute.x,
    y: n.internals.positionAbsolute.y,
    w: n.measured.width ?? 200,
    h: n.measured.height ?? 72,
  });
  const sb = box(s);
  const tb = box(t);
  const p1 = borderPoint(sb, { x: tb.x + tb.w / 2, y: tb.y + tb.h / 2 });
  const p2 = borderPoint(tb, { x: sb.x + sb.w / 2, y: sb.y + sb.h / 2 });
  return <BaseEdge id={id} path={`M ${p1.x},${p1.y} L ${p2.x},${p2.y}`} markerEnd={markerEnd} style={style} label={label} labelX={(p1.x + p2.x) / 2} labelY={(p1.y + p2.y) / 2} />;
}

const nodeTypes = { decision: DecisionNode };
/** Fitting never zooms in past 100 %: one or two nodes would otherwise fill the canvas. */
/** Fit: never enlarged past 1; down to 0.2 so that a wide graph fits a canvas narrowed by the panels beside it. */
const MIN_ZOOM = 0.2;
const FIT_VIEW = { padding: 0.2, maxZoom: 1, minZoom: MIN_ZOOM };
const edgeTypes = { floating: FloatingEdge };

export interface GraphCanvasProps {
  editor: PatternEditor;
  /** Grows on every editor change (re-render trigger). */
  version: number;
  selection: { nodeId?: string; edgeId?: string };
  onSelect(selection: { nodeId?: string; edgeId?: string }): void;
  onRefused(reason: string): void;
  /** Asks the panel to fit the view after the next render (after a layout or an import). */
  fitSignal: number;
  /** Set by the canvas: where a new node goes so that it is seen (the middle of the visible canvas, in graph coordinates). */
  placeRef?: { current: (() => { x: number; y: number }) | null };
}

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
type Direction = (typeof DIRECTIONS)[number];

function Canvas(props: GraphCanvasProps) {
  const { editor, version, selection } = props;
  const { t, locale } = usePatternT();
  const theme = useTheme();
  const flow = useReactFlow();
  const byTarget = useMemo(() => editor.issuesByTarget(), [editor, version]);

  const message = useCallback((i: GraphIssue) => graphIssueMessage(i, locale), [locale]);
  // React Flow's own labels (controls, mini map, handles, keyboard help) in the page's language:
  // the library writes them in English otherwise.
  const ariaLabels = useMemo(
    () => ({
      'node.a11yDescription.default': t('canvas.nodeDescription'),
      'node.a11yDescription.keyboardDisabled': t('canvas.nodeDescriptionKeyboard'),
      'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }: { direction: string; x: number; y: number }) =>
        t('canvas.nodeMoved', { direction: DIRECTIONS.includes(direction as Direction) ? t(`canvas.directions.${direction as Direction}`) : direction, x, y }),
      'edge.a11yDescription.default': t('canvas.edgeDescription'),
      'controls.ariaLabel': t('canvas.controls'),
      'controls.zoomIn.ariaLabel': t('canvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('canvas.zoomOut'),
      'controls.fitView.ariaLabel': t('canvas.fitView'),
      'controls.interactive.ariaLabel': t('canvas.interactive'),
      'minimap.ariaLabel': t('canvas.minimap'),
      'handle.ariaLabel': t('canvas.handle'),
    }),
    [t, locale],
  );

  const derived = useMemo<DecisionFlowNode[]>(
    () =>
      editor.graph.nodes.map((n, i) => ({
        id: n.id,
        type: 'decision',
        position: n.position ?? { x: (i % 4) * 260, y: Math.floor(i / 4) * 140 },
        selected: selection.nodeId === n.id,
        data: {
          name: n.name,
          label: n.label,
          role: n.role,
          roleText: t(`roles.${n.role}`),
          fields: n.fields.map((f) => f.name),
          functionText: n.function ? (n.function.kind === 'python' ? `${n.function.file}:${n.function.function}` : n.function.name) : undefined,
          problems: (byTarget.get(`node:${n.id}`) ?? []).filter((x) => x.severity === 'error').map(message),
          isInput: n.role === 'state' || n.role === 'tunable' || n.role === 'external',
        },
      })),
    [editor, version, selection.nodeId, byTarget, message, t],
  );
  // local copy so that dragging moves smoothly; the editor records the move when it ends
  const [nodes, setNodes] = useState<DecisionFlowNode[]>(derived);
  useEffect(() => setNodes(derived), [derived]);

  const edges = useMemo<Edge[]>(
    () =>
      editor.graph.edges.map((e) => {
        const status = editor.edgeStatus(e, byTarget);
        const problems = (byTarget.get(`edge:${e.id}`) ?? []).map(message);
        return {
          id: e.id,
          source: e.source,
          target: e.target,
          type: EDGE_TYPE[editor.lineStyle],
          className: EDGE_STATUS_CLASS[status],
          selected: selection.edgeId === e.id,
          animated: status === 'start',
          markerEnd: { type: MarkerType.ArrowClosed },
          label: status === 'invalid' ? problems[0] ?? t('edgeStatus.invalid') : undefined,
          ariaLabel: `${t(`edgeStatus.${status}`)}: ${editor.node(e.source)?.name ?? ''} → ${editor.node(e.target)?.name ?? ''}`,
          data: { status },
        };
      }),
    [editor, version, selection.edgeId, byTarget, message, t],
  );

  const box = useRef<HTMLDivElement>(null);
  const { placeRef } = props;
  useEffect(() => {
    if (!placeRef) return;
    placeRef.current = () => {
      const r = box.current?.getBoundingClientRect();
      if (!r) return { x: 0, y: 0 };
      // a little down and right for each node already there, so that new nodes do not stack
      const k = (editor.graph.nodes.length % 5) * 24;
      const p = flow.screenToFlowPosition({ x: r.left + r.width / 2 + k, y: r.top + r.height / 2 + k });
      return { x: p.x - 100, y: p.y - 36 };
    };
    return () => {
      placeRef.current = null;
    };
  }, [placeRef, flow, editor]);

  // Whether the user has panned or zoomed since the graph was last fitted to the canvas.
  const userMoved = useRef(false);
  useEffect(() => {
    if (props.fitSignal <= 0) return;
    userMoved.current = false;
    requestAnimationFrame(() => void flow.fitView(FIT_VIEW));
  }, [props.fitSignal, flow]);

  // The canvas narrows or widens with the panels beside it (a docked panel, an open step
  // guide): refit while the user has not moved the view, so that no node is left off-screen.
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.getBoundingClientRect().width;
    const observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width ?? width;
      if (Math.abs(w - width) < 24) return;
      width = w;
      if (!userMoved.current) requestAnimationFrame(() => void flow.fitView(FIT_VIEW));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [flow]);

  const onNodesChange = useCallback(
    (changes: NodeChange<DecisionFlowNode>[]) => {
      setNodes((ns) => applyNodeChanges(changes, ns));
      const moved: Record<string, { x: number; y: number }> = {};
      for (const c of changes) if (c.type === 'position' && c.dragging === false && c.position) moved[c.id] = c.position;
      if (Object.keys(moved).length > 0) editor.moveNodes(moved);
    },
    [editor],
  );

  const onDrop = useCallback(
    (e: DragEvent<HTMLDivElement>) => {
      const raw = e.dataTransfer.getData(FIELD_MIME);
      if (!raw) return;
      e.preventDefault();
      let columns: ColumnOffer[];
      try {
        columns = JSON.parse(raw) as ColumnOffer[];
      } catch {
        return;
      }
      const onNode = (e.target as HTMLElement).closest('.react-flow__node')?.getAttribute('data-id');
      if (onNode) {
        editor.addFields(onNode, columns);
        props.onSelect({ nodeId: onNode });
        return;
      }
      const position = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const base = (columns[0]?.name ?? 'node').replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1');
      const taken = new Set(editor.graph.nodes.map((n) => n.name));
      let name = base;
      for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
      const id = editor.addNode('state', { name, position, fields: columns });
      props.onSelect({ nodeId: id });
    },
    [editor, flow, props],
  );

  return (
    <div
      ref={box}
      className="dc-pattern-canvas"
      data-testid="pattern-canvas"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(FIELD_MIME)) {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
        }
      }}
      onDrop={onDrop}
    >
      <ReactFlow<DecisionFlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        colorMode={theme === 'dark' ? 'dark' : 'light'}
        onNodesChange={onNodesChange}
        onConnect={(c) => {
          if (!c.source || !c.target) return;
          const r = editor.connect(c.source, c.target);
          if (!r.ok) props.onRefused(r.reason);
        }}
        isValidConnection={(c) => !!c.source && !!c.target && editor.connectRefusal(c.source, c.target) === undefined}
        onNodesDelete={(ns) => ns.forEach((n) => editor.removeNode(n.id))}
        onEdgesDelete={(es) => es.forEach((e) => editor.removeEdge(e.id))}
        onNodeClick={(_, n) => props.onSelect({ nodeId: n.id })}
        onEdgeClick={(_, e) => props.onSelect({ edgeId: e.id })}
        onPaneClick={() => props.onSelect({})}
        deleteKeyCode={['Delete', 'Backspace']}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={MIN_ZOOM}
        onMoveStart={(event) => {
          // Programmatic moves (fitView) come without an event.
          if (event) userMoved.current = true;
        }}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={ariaLabels}
      >
        <Background />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable />
      </ReactFlow>
    </div>
  );
}

/** The canvas with its React Flow provider. */
export function GraphCanvas(props: GraphCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}
