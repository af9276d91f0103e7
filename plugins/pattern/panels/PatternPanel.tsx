/**
 * The decision-graph editor panel (`/workflow/pattern?projectId=…&solutionId=…`): loads the
 * solution's graph, renders the field palette, the canvas (React Flow, behind `import()`), the
 * inspector and the problems, and saves with `solution/setPattern` once editing is finished.
 * All logic is in the headless {@link PatternEditor}.
 */
import './pattern.css';
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, Menu, MenuItem, NonIdealState, Popover, Spinner, Tag } from '@blueprintjs/core';
import { NODE_ROLES, graphIssueMessage, parseDecisionGraph, type DecisionGraph, type SolutionKind } from '@decisio/domain';
import { BusyButton, isApiError, useNotify, useProjectEditRight, useProjectLink, useUnsavedChangesGuard, type PanelProps } from '@decisio/sdk-plugin';
import { LINE_STYLES, PatternEditor, emptyGraph, issueKey, type LineStyle } from '../model/editor';
import { layoutGraph } from '../model/layout';
import { patternApi, type PatternReply } from '../api';
import { usePatternT } from '../i18n';
import { FieldPalette } from './FieldPalette';
import { Inspector } from './Inspector';
import { YamlDialog } from './YamlDialog';
import { ReviveImportDialog } from './ReviveImportDialog';

const GraphCanvas = lazy(() => import('./GraphCanvas').then((m) => ({ default: m.GraphCanvas })));

export function PatternPanel(_props: PanelProps) {
  const { t } = usePatternT();
  const link = useProjectLink();
  const solutionId = link.params.solutionId;
  const pattern = patternApi.endpoints['pattern/get'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId, refetchOnMountOrArgChange: true });
  const solution = patternApi.endpoints['pattern/solution'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const corr = patternApi.endpoints['pattern/correlation'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });

  if (!solutionId) return <NonIdealState icon="graph" title={t('noSolution.title')} description={t('noSolution.description')} />;
  // `currentData`: RTK Query's `data` still holds the previous solution's answers while this
  // one's load, and the editor (keyed by the solution) would open on the other solution's graph
  // and could save it here.
  const graph = pattern.currentData;
  if ((!graph && !pattern.isError) || (!solution.currentData && solution.isFetching)) return <NonIdealState icon={<Spinner aria-label={t('loading')} />} title={t('loading')} />;
  if (pattern.isError || !graph) {
    const message = isApiError(pattern.error) ? pattern.error.message : '';
    return (
      <NonIdealState
        icon="error"
        title={t('loadFailed', { message })}
        action={<Button icon="refresh" text={t('retry')} onClick={() => void pattern.refetch()} />}
      />
    );
  }
  const kind: SolutionKind = solution.currentData?.goalType === 'parameter_tuning' ? 'tuning' : 'policy';
  const c = corr.currentData?.correlation;
  return (
    <Workspace
      key={solutionId}
      solutionId={solutionId}
      projectId={link.params.projectId ?? solution.currentData?.projectId}
      kind={kind}
      initial={graph}
      primaryTableId={c?.datasetId ?? c?.primaryTableId}
      guide={link.guide}
      onReviveImported={() => void corr.refetch()}
    />
  );
}

interface WorkspaceProps {
  solutionId: string;
  projectId?: string;
  kind: SolutionKind;
  initial: PatternReply;
  primaryTableId?: string;
  guide: boolean;
  /** After a REVIVE folder import (the graph reloads by itself; the primary dataset changed). */
  onReviveImported(): void;
}

const isTyping = (el: EventTarget | null) => {
  const h = el as HTMLElement | null;
  if (!h || !h.tagName) return false;
  return h.tagName === 'INPUT' || h.tagName === 'TEXTAREA' || h.tagName === 'SELECT' || h.isContentEditable || !!h.closest?.('.monaco-editor');
};

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function Workspace(props: WorkspaceProps) {
  const { t, locale } = usePatternT();
  const notify = useNotify();
  const editor = useMemo(() => new PatternEditor(undefined, { solution: props.kind }), [props.kind]);
  const version = useSyncExternalStore(
    useCallback((cb: () => void) => editor.subscribe(cb), [editor]),
    () => editor.getVersion(),
  );
  const [selection, setSelection] = useState<{ nodeId?: string; edgeId?: string }>({});
  const [editing, setEditing] = useState(false);
  const [lineStyle, setLineStyle] = useState<LineStyle>('bezier');
  const [fullscreen, setFullscreen] = useState(false);
  const [yamlOpen, setYamlOpen] = useState(false);
  const [reviveOpen, setReviveOpen] = useState(false);
  const [fitSignal, setFitSignal] = useState(0);
  const [save, saving] = patternApi.endpoints['pattern/set'].useMutation();
  // A view collaborator (or a locked project) may look but not change the graph: adding nodes,
  // the imports and Save are disabled with the reason. Refused only once known (not while the
  // project is read): the server decides in any case.
  const refused = useProjectEditRight(props.projectId).reason;
  const root = useRef<HTMLDivElement>(null);
  const place = useRef<(() => { x: number; y: number }) | null>(null);
  editor.lineStyle = lineStyle;

  // load the stored graph (again after a refetch, unless the editor has unsaved edits or holds
  // that graph already); lay it
  // out when nodes have no position yet. Reads `notify`/`t` through a ref so that a language
  // switch does not reload (and drop unsaved edits).
  const say = useRef({ notify, t });
  say.current = { notify, t };
  useEffect(() => {
    let graph: DecisionGraph = emptyGraph();
    if (props.initial.graph) {
      try {
        graph = parseDecisionGraph(props.initial.graph);
      } catch {
        say.current.notify({ intent: 'danger', message: say.current.t('loadFailed', { message: 'graph' }) });
      }
    }
    if (editor.isDirty() || JSON.stringify(graph) === JSON.stringify(editor.graph)) return;
    editor.load({ graph });
    if (graph.nodes.some((n) => !n.position)) {
      const at = editor.getVersion();
      void layoutGraph(graph).then((pos) => {
        if (editor.getVersion() !== at) return;
        editor.load({ graph: { ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: n.position ?? pos[n.id] })) } });
        setFitSignal((s) => s + 1);
      });
    }
  }, [editor, props.initial]);

  // The editor is told outside of React's state updater: it notifies its subscribers, which
  // must not happen while React renders (it warned "Cannot update a component while rendering").
  const editingNow = useRef(false);
  const changeEditing = useCallback(
    (on: boolean) => {
      if (on === editingNow.current) return;
      editingNow.current = on;
      if (on) editor.beginEdit();
      else editor.finishEdit();
      setEditing(on);
    },
    [editor],
  );
  const select = useCallback(
    (s: { nodeId?: string; edgeId?: string }) => {
      if (s.nodeId !== selection.nodeId) changeEditing(false);
      setSelection(s);
    },
    [selection.nodeId, changeEditing],
  );

  const autoLayout = useCallback(async () => {
    const pos = await layoutGraph(editor.graph);
    editor.moveNodes(pos);
    setFitSignal((s) => s + 1);
  }, [editor]);

  const doSave = async () => {
    if (refused !== undefined) {
      notify({ intent: 'warning', message: refused });
      return;
    }
    const check = editor.saveCheck();
    if (!check.ok) {
      const first = check.issues?.[0];
      notify({
        intent: check.reason === 'clean' ? 'none' : 'warning',
        message: check.reason === 'invalid' && first ? t('save.invalid', { first: graphIssueMessage(first, locale) }) : t(`save.${check.reason}`),
      });
      if (first && first.target.kind !== 'graph') setSelection(first.target.kind === 'edge' ? { edgeId: first.target.edgeId } : { nodeId: first.target.nodeId });
      return;
    }
    const payload = editor.savePayload();
    try {
      await save({ solutionId: props.solutionId, graph: payload.graph, files: payload.files }).unwrap();
      editor.markSaved();
      notify({ intent: 'success', message: t('save.done') });
    } catch (e) {
      if (isApiError(e) && !e.handled) {
        const detail = e.errors ? Object.values(e.errors)[0] : undefined;
        notify({ intent: 'danger', message: t('save.failed', { message: detail ?? e.message }) });
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && fullscreen) {
      setFullscreen(false);
      return;
    }
    if (isTyping(e.target)) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      if (e.shiftKey) editor.redo();
      else editor.undo();
    } else if (mod && e.key.toLowerCase() === 'y') {
      e.preventDefault();
      editor.redo();
    } else if (mod && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void doSave();
    }
  };

  const issues = useMemo(() => editor.issues(), [editor, version]);
  const errors = issues.filter((i) => i.severity === 'error');
  const dirty = editor.isDirty();
  void version;
  // Unsaved changes ask before they are lost: closing or reloading the page, and any navigation
  // of the workbench (side menu, palette, links). A saved graph is not dirty and asks nothing.
  const unsaved = useUnsavedChangesGuard(dirty);

  return (
    <div
      ref={root}
      className={`dc-pattern${fullscreen ? ' dc-pattern-fullscreen' : ''}`}
      data-testid="pattern-editor"
      onKeyDown={onKeyDown}
      tabIndex={-1}
    >
      <div className="dc-pattern-toolbar" role="toolbar" aria-label={t('title')}>
        <Popover
          disabled={refused !== undefined}
          placement="bottom-start"
          content={
            <Menu>
              {NODE_ROLES.map((r) => (
                <MenuItem
                  key={r}
                  text={t(`roles.${r}`)}
                  data-testid={`pattern-add-${r}`}
                  onClick={() => {
                    const position = place.current?.();
                    const id = editor.addNode(r, position ? { position } : {});
                    select({ nodeId: id });
                  }}
                />
              ))}
            </Menu>
          }
        >
          <Button icon="add" text={t('toolbar.addNode')} disabled={refused !== undefined} title={refused} data-testid="pattern-add-node" />
        </Popover>
        <ButtonGroup>
          <Button icon="undo" aria-label={t('toolbar.undo')} title={t('toolbar.undo')} disabled={!editor.canUndo()} onClick={() => editor.undo()} data-testid="pattern-undo" />
          <Button icon="redo" aria-label={t('toolbar.redo')} title={t('toolbar.redo')} disabled={!editor.canRedo()} onClick={() => editor.redo()} data-testid="pattern-redo" />
        </ButtonGroup>
        <Button icon="layout-hierarchy" text={t('toolbar.layout')} disabled={editor.graph.nodes.length === 0} onClick={() => void autoLayout()} />
        <HTMLSelect
          aria-label={t('toolbar.lineStyle')}
          title={t('toolbar.lineStyle')}
          value={lineStyle}
          data-testid="pattern-line-style"
          onChange={(e) => setLineStyle(e.currentTarget.value as LineStyle)}
          options={LINE_STYLES.map((s) => ({ value: s, label: t(`lineStyles.${s}`) }))}
        />
        <Button icon="import" text={t('toolbar.yaml')} disabled={refused !== undefined} title={refused} onClick={() => setYamlOpen(true)} data-testid="pattern-yaml" />
        <Button
          icon="folder-shared-open"
          text={t('toolbar.revive')}
          disabled={dirty || refused !== undefined}
          title={refused ?? (dirty ? t('toolbar.reviveDirty') : t('revive.title'))}
          onClick={() => setReviveOpen(true)}
          data-testid="pattern-revive"
        />
        <Button
          icon="export"
          text={t('toolbar.exportYaml')}
          disabled={editor.graph.nodes.length === 0}
          onClick={() => {
            const out = editor.exportYaml();
            download('config.yaml', out.yaml);
            for (const [name, code] of Object.entries(out.files)) download(name, code);
          }}
        />
        <Button
          icon={fullscreen ? 'minimize' : 'fullscreen'}
          aria-label={fullscreen ? t('toolbar.exitFullscreen') : t('toolbar.fullscreen')}
          title={fullscreen ? t('toolbar.exitFullscreen') : t('toolbar.fullscreen')}
          onClick={() => setFullscreen((f) => !f)}
        />
        <span className="dc-pattern-spacer" />
        <Tag minimal intent={errors.length > 0 ? 'danger' : 'success'} data-testid="pattern-issue-count">
          {errors.length > 0 ? t('toolbar.issues', { count: errors.length }) : t('toolbar.noIssues')}
        </Tag>
        <Tag minimal intent={dirty ? 'warning' : 'none'} data-testid="pattern-dirty">
          {dirty ? t('toolbar.unsaved') : t('toolbar.saved')}
        </Tag>
        <BusyButton
          intent="primary"
          icon="floppy-disk"
          text={saving.isLoading ? t('toolbar.saving') : t('toolbar.save')}
          loading={saving.isLoading}
          disabled={!dirty || refused !== undefined}
          title={refused ?? (editing ? t('save.editing') : undefined)}
          data-testid="pattern-save"
          onClick={() => void doSave()}
        />
      </div>
      {props.guide && (
        <Callout intent="primary" compact className="dc-pattern-guide" data-testid="pattern-guide">
          {t('guide')}
        </Callout>
      )}
      <div className="dc-pattern-body">
        <FieldPalette editor={editor} version={version} projectId={props.projectId} primaryTableId={props.primaryTableId} selectedNodeId={selection.nodeId} />
        <div className="dc-pattern-main">
          {editor.graph.nodes.length === 0 && (
            <NonIdealState className="dc-pattern-empty" icon="graph" title={t('empty.title')} description={t('empty.description')} />
          )}
          <Suspense fallback={<Spinner aria-label={t('loading')} />}>
            <GraphCanvas editor={editor} version={version} selection={selection} onSelect={select} fitSignal={fitSignal} placeRef={place} onRefused={(r) => notify({ intent: 'warning', message: t(`connect.${r as 'cycle'}`) })} />
          </Suspense>
        </div>
        <aside className="dc-pattern-side">
          <Inspector editor={editor} version={version} selection={selection} editing={editing} onEditingChange={changeEditing} onSelect={select} />
          <section className="dc-pattern-problems" aria-label={t('issuesPanel')}>
            <h4>{t('issuesPanel')}</h4>
            {issues.length === 0 && <p className="dc-pattern-muted">{t('toolbar.noIssues')}</p>}
            <ul data-testid="pattern-problems">
              {issues.map((i, k) => {
                const key = issueKey(i);
                return (
                  <li key={k}>
                    <button
                      type="button"
                      className={`dc-pattern-problem dc-pattern-problem-${i.severity}`}
                      onClick={() => key.startsWith('node:') ? select({ nodeId: key.slice(5) }) : key.startsWith('edge:') ? select({ edgeId: key.slice(5) }) : undefined}
                    >
                      {graphIssueMessage(i, locale)}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        </aside>
      </div>
      <ReviveImportDialog
        solutionId={props.solutionId}
        isOpen={reviveOpen}
        onClose={() => setReviveOpen(false)}
        onImported={() => {
          setSelection({});
          props.onReviveImported();
        }}
      />
      <YamlDialog
        editor={editor}
        isOpen={yamlOpen}
        onClose={() => setYamlOpen(false)}
        onBuilt={(file, warnings) => {
          setYamlOpen(false);
          setSelection({});
          notify({ intent: 'success', message: t('yaml.built', { file }) });
          if (warnings.length > 0) notify({ intent: 'warning', message: t('yaml.warnings', { count: warnings.length, first: warnings[0] }) });
          if (editor.graph.nodes.some((n) => !n.position)) void autoLayout();
          else setFitSignal((s) => s + 1);
        }}
      />
      {unsaved.dialog}
    </div>
  );
}
