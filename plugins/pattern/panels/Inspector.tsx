/**
 * The side inspector of the selected node or edge: name, kind, tunable flag, field division and
 * field settings, node function (code in {@link CodeEditor}) and custom network. Editing opens
 * with "Edit" and ends with "Finish editing"; the editor refuses to save in between.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, FileInput, FormGroup, HTMLSelect, InputGroup, Switch, Tag } from '@blueprintjs/core';
import {
  BUILTIN_FUNCTIONS,
  FIELD_DATA_TYPES,
  FIELD_KINDS,
  FIELD_VISIBILITIES,
  NODE_ROLES,
  graphIssueMessage,
  isInputRole,
  type BuiltinFunctionName,
  type GraphField,
  type GraphIssue,
  type GraphNode,
  type NodeRole,
} from '@decisio/domain';
import { CodeEditor } from '@decisio/sdk-plugin';
import type { PatternEditor } from '../model/editor';
import { usePatternT } from '../i18n';

/** A text input that commits on blur or Enter (one undo step per edit, not per key). */
function CommitInput(props: { value: string; onCommit(v: string): void; label: string; testId?: string; intent?: 'danger' | 'none' }) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  return (
    <InputGroup
      size="small"
      aria-label={props.label}
      placeholder={props.label}
      data-testid={props.testId}
      intent={props.intent}
      value={draft}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={() => draft !== props.value && props.onCommit(draft)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && draft !== props.value) props.onCommit(draft);
      }}
    />
  );
}

const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

function FieldRow(props: { editor: PatternEditor; node: GraphNode; index: number; field: GraphField; issues: GraphIssue[] }) {
  const { editor, node, index, field } = props;
  const { t, locale } = usePatternT();
  const problems = props.issues.filter((i) => i.target.kind === 'field' && i.target.fieldIndex === index);
  const bad = (prop: string) => (problems.some((i) => i.target.kind === 'field' && i.target.property === prop) ? 'danger' : 'none');
  const update = (patch: Partial<GraphField>) => editor.updateField(node.id, index, patch);
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return (
    <div className="dc-pattern-field" data-testid={`pattern-field-${field.name}`}>
      <div className="dc-pattern-field-row">
        <CommitInput label={t('fields.name')} value={field.name} intent={bad('name')} onCommit={(v) => update({ name: v })} />
        <HTMLSelect
          aria-label={t('field.dataType')}
          value={field.dataType}
          onChange={(e) => update({ dataType: e.currentTarget.value as GraphField['dataType'] })}
          options={FIELD_DATA_TYPES.map((d) => ({ value: d, label: t(`field.dataTypes.${d}`) }))}
        />
        <Button
          size="small"
          variant="minimal"
          icon="cross"
          aria-label={`${t('inspector.remove')} ${field.name}`}
          title={t('inspector.remove')}
          onClick={() => editor.removeField(node.id, index)}
        />
      </div>
      <div className="dc-pattern-field-row">
        {field.dataType === 'category' ? (
          <CommitInput
            label={t('field.values')}
            value={(field.values ?? []).map(String).join(', ')}
            intent={bad('values')}
            onCommit={(v) => update({ values: splitList(v).map((x) => (Number.isFinite(Number(x)) ? Number(x) : x)) })}
          />
        ) : (
          <>
            <CommitInput label={t('field.min')} value={str(field.min)} intent={bad('min')} onCommit={(v) => update({ min: v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v })} />
            <CommitInput label={t('field.max')} value={str(field.max)} intent={bad('max')} onCommit={(v) => update({ max: v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v })} />
            {field.dataType === 'discrete' && (
              <CommitInput label={t('field.count')} value={str(field.count)} intent={bad('count')} onCommit={(v) => update({ count: Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : v })} />
            )}
          </>
        )}
      </div>
      <div className="dc-pattern-field-row">
        <HTMLSelect aria-label={t('field.kind')} value={field.kind} onChange={(e) => update({ kind: e.currentTarget.value as GraphField['kind'] })} options={[...FIELD_KINDS]} />
        <HTMLSelect
          aria-label={t('field.visibility')}
          value={field.visibility}
          onChange={(e) => update({ visibility: e.currentTarget.value as GraphField['visibility'] })}
          options={FIELD_VISIBILITIES.map((v) => ({ value: v, label: t(`field.visibilities.${v}`) }))}
        />
        <HTMLSelect
          aria-label={t('inspector.moveTo')}
          value=""
          onChange={(e) => e.currentTarget.value && editor.moveField(node.id, index, e.currentTarget.value)}
          options={[{ value: '', label: t('inspector.moveTo') }, ...editor.graph.nodes.filter((n) => n.id !== node.id).map((n) => ({ value: n.id, label: n.name }))]}
        />
      </div>
      {problems.map((p, i) => (
        <div key={i} className="dc-pattern-problem-text">
          {graphIssueMessage(p, locale)}
        </div>
      ))}
    </div>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <section className="dc-pattern-section">
      <h4>{props.title}</h4>
      {props.children}
    </section>
  );
}

function FunctionEditor(props: { editor: PatternEditor; node: GraphNode }) {
  const { editor, node } = props;
  const { t } = usePatternT();
  const fn = node.function;
  const kind = fn?.kind ?? 'none';
  return (
    <Section title={t('function.title')}>
      <HTMLSelect
        aria-label={t('function.title')}
        value={kind}
        data-testid="pattern-function-kind"
        onChange={(e) => {
          const k = e.currentTarget.value;
          if (k === 'none') editor.setFunction(node.id, undefined);
          else if (k === 'builtin') editor.setFunction(node.id, { kind: 'builtin', name: 'identity' });
          else editor.setFunction(node.id, { kind: 'python', file: 'expert_function.py', function: node.name, code: editor.files['expert_function.py'] ?? `def ${node.name}(data):\n    return data\n` });
        }}
        options={[
          { value: 'none', label: t('function.none') },
          { value: 'python', label: t('function.python') },
          { value: 'builtin', label: t('function.builtin') },
        ]}
      />
      {fn?.kind === 'builtin' && (
        <HTMLSelect
          aria-label={t('function.builtin')}
          value={fn.name}
          onChange={(e) => editor.setFunction(node.id, { kind: 'builtin', name: e.currentTarget.value as BuiltinFunctionName })}
          options={BUILTIN_FUNCTIONS.map((b) => ({ value: b, label: t(`function.builtins.${b}`) }))}
        />
      )}
      {fn?.kind === 'python' && (
        <>
          <FormGroup label={t('function.file')} inline>
            <CommitInput label={t('function.file')} value={fn.file} onCommit={(v) => editor.setFunction(node.id, { ...fn, file: v.endsWith('.py') ? v : `${v}.py`, code: undefined })} />
          </FormGroup>
          <FormGroup label={t('function.function')} inline>
            <CommitInput label={t('function.function')} value={fn.function} onCommit={(v) => editor.setFunction(node.id, { ...fn, function: v })} />
          </FormGroup>
          <FileInput
            fill
            text={t('function.upload')}
            buttonText={t('yaml.choose')}
            inputProps={{ accept: '.py', 'aria-label': t('function.upload') }}
            onInputChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) void f.text().then((code) => editor.setFunction(node.id, { ...fn, file: f.name, code }));
            }}
          />
          <CodeEditor label={t('function.code')} testId="pattern-function-code" value={fn.code ?? ''} onChange={(code) => editor.setFunctionCode(node.id, code)} />
        </>
      )}
    </Section>
  );
}

function NetworkEditor(props: { editor: PatternEditor; node: GraphNode }) {
  const { editor, node } = props;
  const { t } = usePatternT();
  const net = node.network;
  return (
    <Section title={t('network.title')}>
      <HTMLSelect
        aria-label={t('network.title')}
        value={net?.kind ?? 'none'}
        onChange={(e) => {
          const k = e.currentTarget.value;
          if (k === 'mlp') editor.setNetwork(node.id, { kind: 'mlp', hidden: [256, 256], activation: 'relu' });
          else if (k === 'python') editor.setNetwork(node.id, { kind: 'python', file: 'custom_node.py', className: 'CustomNode' });
          else editor.setNetwork(node.id, undefined);
        }}
        options={[
          { value: 'none', label: t('network.none') },
          { value: 'mlp', label: t('network.mlp') },
          { value: 'python', label: t('network.python') },
        ]}
      />
      {net?.kind === 'mlp' && (
        <>
          <CommitInput
            label={t('network.hidden')}
            value={(net.hidden ?? []).join(', ')}
            onCommit={(v) => editor.setNetwork(node.id, { ...net, hidden: splitList(v).map(Number).filter((x) => Number.isInteger(x) && x > 0) })}
          />
          <HTMLSelect
            aria-label={t('network.activation')}
            value={net.activation ?? 'relu'}
            onChange={(e) => editor.setNetwork(node.id, { ...net, activation: e.currentTarget.value as 'relu' })}
            options={['relu', 'tanh', 'silu', 'leakyrelu']}
          />
        </>
      )}
      {net?.kind === 'python' && (
        <>
          <CommitInput label={t('function.file')} value={net.file} onCommit={(v) => editor.setNetwork(node.id, { ...net, file: v })} />
          <CommitInput label={t('network.className')} value={net.className} onCommit={(v) => editor.setNetwork(node.id, { ...net, className: v })} />
        </>
      )}
    </Section>
  );
}

export interface InspectorProps {
  editor: PatternEditor;
  version: number;
  selection: { nodeId?: string; edgeId?: string };
  editing: boolean;
  onEditingChange(editing: boolean): void;
  onSelect(selection: { nodeId?: string; edgeId?: string }): void;
}

export function Inspector(props: InspectorProps) {
  const { editor, selection, editing } = props;
  const { t, locale } = usePatternT();
  const byTarget = editor.issuesByTarget();
  const node = selection.nodeId ? editor.node(selection.nodeId) : undefined;
  const edge = selection.edgeId ? editor.graph.edges.find((e) => e.id === selection.edgeId) : undefined;

  if (edge) {
    const status = editor.edgeStatus(edge, byTarget);
    return (
      <div className="dc-pattern-inspector" data-testid="pattern-inspector">
        <h3>{t('inspector.edge')}</h3>
        <p>{t('inspector.edgeFromTo', { source: editor.node(edge.source)?.name ?? '?', target: editor.node(edge.target)?.name ?? '?' })}</p>
        <Tag intent={status === 'invalid' ? 'danger' : status === 'start' ? 'primary' : 'success'}>{t(`edgeStatus.${status}`)}</Tag>
        {(byTarget.get(`edge:${edge.id}`) ?? []).map((i, k) => (
          <Callout key={k} intent="danger" compact>
            {graphIssueMessage(i, locale)}
          </Callout>
        ))}
        <Button
          icon="trash"
          intent="danger"
          text={t('inspector.removeEdge')}
          onClick={() => {
            editor.removeEdge(edge.id);
            props.onSelect({});
          }}
        />
      </div>
    );
  }
  if (!node) return <div className="dc-pattern-inspector dc-pattern-muted" data-testid="pattern-inspector">{t('inspector.nothing')}</div>;

  const issues = byTarget.get(`node:${node.id}`) ?? [];
  const nodeIssues = issues.filter((i) => i.target.kind === 'node');
  return (
    <div className="dc-pattern-inspector" data-testid="pattern-inspector">
      <div className="dc-pattern-inspector-head">
        <h3>{node.label || node.name}</h3>
        {editing ? (
          <Button intent="primary" icon="tick" text={t('inspector.done')} data-testid="pattern-finish-edit" onClick={() => props.onEditingChange(false)} />
        ) : (
          <Button icon="edit" text={t('inspector.edit')} data-testid="pattern-edit" onClick={() => props.onEditingChange(true)} />
        )}
      </div>
      {nodeIssues.map((i, k) => (
        <Callout key={k} intent={i.severity === 'error' ? 'danger' : 'warning'} compact>
          {graphIssueMessage(i, locale)}
        </Callout>
      ))}
      {!editing ? (
        <dl className="dc-pattern-summary">
          <dt>{t('inspector.name')}</dt>
          <dd>{node.name}</dd>
          <dt>{t('inspector.role')}</dt>
          <dd>{t(`roles.${node.role}`)}</dd>
          <dt>{t('inspector.fields')}</dt>
          <dd>{node.fields.map((f) => f.name).join(', ') || t('inspector.noFields')}</dd>
          {node.function && (
            <>
              <dt>{t('function.title')}</dt>
              <dd>{node.function.kind === 'python' ? `${node.function.file}:${node.function.function}` : t(`function.builtins.${node.function.name}`)}</dd>
            </>
          )}
        </dl>
      ) : (
        <>
          <Callout intent="primary" compact>
            {t('inspector.editingHint')}
          </Callout>
          <FormGroup label={t('inspector.name')}>
            <CommitInput label={t('inspector.name')} testId="pattern-node-name" value={node.name} onCommit={(v) => editor.updateNode(node.id, { name: v.trim() })} />
          </FormGroup>
          <FormGroup label={t('inspector.label')}>
            <CommitInput label={t('inspector.label')} value={node.label ?? ''} onCommit={(v) => editor.updateNode(node.id, { label: v })} />
          </FormGroup>
          <FormGroup label={t('inspector.role')}>
            <HTMLSelect
              aria-label={t('inspector.role')}
              data-testid="pattern-node-role"
              value={node.role}
              onChange={(e) => editor.updateNode(node.id, { role: e.currentTarget.value as NodeRole })}
              options={NODE_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
            />
          </FormGroup>
          {(node.role === 'external' || node.role === 'tunable') && (
            <Switch label={t('inspector.tunable')} checked={node.role === 'tunable'} onChange={(e) => editor.setTunable(node.id, e.currentTarget.checked)} />
          )}
          <Section title={`${t('inspector.fields')} · ${t('field.settings')}`}>
            {node.fields.length === 0 && <p className="dc-pattern-muted">{t('inspector.noFields')}</p>}
            {node.fields.map((f, i) => (
              <FieldRow key={`${f.name}-${i}`} editor={editor} node={node} index={i} field={f} issues={issues} />
            ))}
          </Section>
          {!isInputRole(node.role) && <FunctionEditor editor={editor} node={node} />}
          {!isInputRole(node.role) && !node.function && <NetworkEditor editor={editor} node={node} />}
        </>
      )}
      <Button
        icon="trash"
        intent="danger"
        variant="minimal"
        text={t('inspector.removeNode')}
        onClick={() => {
          if (editing) props.onEditingChange(false);
          editor.removeNode(node.id);
          props.onSelect({});
        }}
      />
    </div>
  );
}
