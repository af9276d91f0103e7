/**
 * The dataset fields to drag into nodes: the datasets of the project (the solution's primary
 * table first), their columns with the dataset's field settings, and fields added by hand
 * when no dataset is there yet.
 */
import { useState } from 'react';
import { Button, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import type { Dataset } from '@decisio/domain';
import type { ColumnOffer, PatternEditor } from '../model/editor';
import { patternApi } from '../api';
import { usePatternT } from '../i18n';
import { FIELD_MIME } from './drag';

export interface FieldPaletteProps {
  editor: PatternEditor;
  version: number;
  projectId?: string;
  /** The solution's primary dataset (table correlation), selected first. */
  primaryTableId?: string;
  selectedNodeId?: string;
}

function offerOf(c: Dataset['columns'][number]): ColumnOffer {
  return {
    name: c.name,
    dataType: c.dataType,
    kind: c.kind,
    min: c.min ?? undefined,
    max: c.max ?? undefined,
    count: c.discreteNumber ?? undefined,
    values: c.values ?? undefined,
    visibility: c.hidden ? 'hidden' : 'normal',
  };
}

export function FieldPalette(props: FieldPaletteProps) {
  const { editor, selectedNodeId } = props;
  const { t } = usePatternT();
  const list = patternApi.endpoints['pattern/datasets'].useQuery({ page: 1, pageSize: 100, projectId: props.projectId }, { skip: !props.projectId });
  const [picked, setPicked] = useState<string | undefined>();
  const tableId = picked ?? props.primaryTableId ?? list.data?.rows[0]?.tableId;
  const dataset = patternApi.endpoints['pattern/dataset'].useQuery({ tableId: tableId ?? '' }, { skip: !tableId });
  const [byHand, setByHand] = useState<ColumnOffer[]>([]);
  const [newName, setNewName] = useState('');

  const usedIn = new Map<string, string>();
  for (const n of editor.graph.nodes) for (const f of n.fields) if (!usedIn.has(f.name)) usedIn.set(f.name, n.name);
  // The picked dataset's columns only (`data` would offer the previous dataset's while it loads).
  const shown = dataset.currentData;
  const columns: ColumnOffer[] = [...(shown?.columns.map(offerOf) ?? []), ...byHand.filter((b) => !shown?.columns.some((c) => c.name === b.name))];
  const loading = list.isLoading || (!!tableId && !shown && dataset.isFetching);

  const options = [...(list.data?.rows ?? [])];
  if (shown && !options.some((d) => d.tableId === shown.tableId)) options.unshift(shown);

  return (
    <div className="dc-pattern-palette" data-testid="pattern-fields">
      <h4>{t('fields.title')}</h4>
      <HTMLSelect
        fill
        aria-label={t('fields.dataset')}
        value={tableId ?? ''}
        onChange={(e) => setPicked(e.currentTarget.value || undefined)}
        options={options.length === 0 ? [{ value: '', label: t('fields.noDataset') }] : options.map((d) => ({ value: d.tableId, label: d.name }))}
      />
      <p className="dc-pattern-muted">{t('fields.hint')}</p>
      {loading && <Spinner size={20} aria-label={t('fields.loading')} />}
      {!loading && columns.length === 0 && <p className="dc-pattern-muted">{t('fields.none')}</p>}
      <ul className="dc-pattern-columns" aria-label={t('fields.title')}>
        {columns.map((c) => (
          <li
            key={c.name}
            draggable
            tabIndex={0}
            data-testid={`pattern-column-${c.name}`}
            className={usedIn.has(c.name) ? 'is-used' : undefined}
            onDragStart={(e) => {
              e.dataTransfer.setData(FIELD_MIME, JSON.stringify([c]));
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && selectedNodeId) editor.addFields(selectedNodeId, [c]);
            }}
            onDoubleClick={() => selectedNodeId && editor.addFields(selectedNodeId, [c])}
          >
            <span>{c.name}</span>
            {usedIn.has(c.name) && <small>{t('fields.used', { node: usedIn.get(c.name) })}</small>}
          </li>
        ))}
      </ul>
      <form
        className="dc-pattern-byhand"
        onSubmit={(e) => {
          e.preventDefault();
          const name = newName.trim();
          if (!name) return;
          if (!columns.some((c) => c.name === name)) setByHand((b) => [...b, { name }]);
          if (selectedNodeId) editor.addFields(selectedNodeId, [{ name }]);
          setNewName('');
        }}
      >
        <InputGroup
          size="small"
          aria-label={t('fields.addByHand')}
          placeholder={t('fields.addByHand')}
          data-testid="pattern-field-new"
          value={newName}
          onChange={(e) => setNewName(e.currentTarget.value)}
          rightElement={<Button type="submit" size="small" icon="plus" aria-label={t('fields.add')} title={t('fields.add')} />}
        />
      </form>
    </div>
  );
}
