import { useState } from 'react';
import { Button, ButtonGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { DATASET_TYPES, type Dataset, type DatasetType } from '@decisio/domain';
import { Alert, BusyButton, pageCount, Pager, useListSearch, useLocale, useNotify, useOpeningKey, useProjectEditRight, useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { failureMessage, formatBytes } from '../format';
import { useDataT } from '../i18n';
import { DataOpsDialog } from './DataOpsDialog';
import { DatasetDialog } from './DatasetDialog';
import { ImportDialog } from './ImportDialog';
import { UploadDialog } from './UploadDialog';

const PAGE_SIZE = 20;
const NAME_SHOWN = 30;

/**
 * Dataset management: the caller's business, simulation and decision datasets (or a project's,
 * when the address carries `projectId`), upload, import from a database, preview and field
 * settings, download of the original file, delete.
 *
 * One list per project: another starts on its own first page and filters and never shows the
 * previous one's datasets while its own load.
 */
export function DatasetsPanel(_props: PanelProps) {
  return <Datasets key={useProjectLink().params.projectId ?? ''} />;
}

function Datasets() {
  const { t } = useDataT();
  const locale = useLocale();
  const notify = useNotify();
  const { params } = useProjectLink();
  const projectId = params.projectId;
  // Inside a project, a collaborator who may only view it (or a locked project) is offered no
  // upload, import or delete; outside a project the datasets are the user's own.
  const right = useProjectEditRight(projectId);
  const canChange = !projectId || right.canEdit;
  const refusal = projectId ? right.reason : undefined;
  const [type, setType] = useState<DatasetType | ''>('');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [type] });
  const [uploading, setUploading] = useState(false);
  const [importing, setImporting] = useState(false);
  const [opened, setOpened] = useState<string | null>(null);
  // A new dialog for each opening (never the previous dataset's fields), the same while it closes (its animation runs).
  const openingKey = useOpeningKey(opened);
  const [deleting, setDeleting] = useState<Dataset | null>(null);
  const [operating, setOperating] = useState<Dataset | null>(null);

  const list = dataAccessApi.endpoints['data-access/list'].useQuery({
    page,
    pageSize: PAGE_SIZE,
    ...(search ? { keyword: search } : {}),
    ...(type ? { type } : {}),
    ...(projectId ? { projectId } : {}),
  });
  const [drop, dropping] = dataAccessApi.endpoints['data-access/drop'].useMutation();
  const [sourceUrl] = dataAccessApi.endpoints['data-access/sourceDownload'].useMutation();
  const [fetching, setFetching] = useState<string | null>(null);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  const confirmDelete = async () => {
    const d = deleting;
    if (!d) return;
    try {
      await drop({ tableId: d.tableId }).unwrap();
      notify({ message: t('remove.done', { name: d.name }), intent: 'success', icon: 'trash' });
    } catch (err) {
      const m = failureMessage(err, t('loadFailed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    } finally {
      setDeleting(null);
    }
  };

  /** Downloads the file the dataset was made from (not for imports from a database: they have none). */
  const download = async (d: Dataset) => {
    setFetching(d.tableId);
    try {
      const { url, name } = await sourceUrl({ tableId: d.tableId }).unwrap();
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      const m = failureMessage(err, t('download.failed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    } finally {
      setFetching(null);
    }
  };

  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const pages = pageCount(total, PAGE_SIZE);
  const filtered = Boolean(search || type);

  return (
    <div className="dc-data-access" data-testid="datasets-panel" style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }}>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <InputGroup leftIcon="search" placeholder={t('search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} aria-label={t('search')} data-testid="datasets-search" style={{ minWidth: 240 }} />
        <HTMLSelect value={type} onChange={(e) => setType(e.target.value as DatasetType | '')} aria-label={t('columns.type')} data-testid="datasets-type">
          <option value="">{t('allTypes')}</option>
          {DATASET_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`types.${x}`)}
            </option>
          ))}
        </HTMLSelect>
        <Button icon="refresh" text={t('refresh')} onClick={() => void list.refetch()} />
        <span style={{ flex: 1 }} />
        <Button icon="import" text={t('actions.import')} disabled={!canChange} title={refusal} onClick={() => setImporting(true)} data-testid="datasets-import" />
        <Button intent="primary" icon="upload" text={t('actions.newDataset')} disabled={!canChange} title={refusal} onClick={() => setUploading(true)} data-testid="datasets-upload" />
      </div>

      {list.isLoading ? (
        <NonIdealState icon={<Spinner />} title={t('loading')} />
      ) : list.isError ? (
        <div data-testid="datasets-error">
          <NonIdealState icon="error" title={t('loadFailed')} action={<Button text={t('retry')} onClick={() => void list.refetch()} />} />
        </div>
      ) : rows.length === 0 ? (
        <div data-testid="datasets-empty">
          <NonIdealState icon="th" title={filtered ? t('empty.noMatch') : t('empty.title')} description={filtered ? undefined : t('empty.description')} />
        </div>
      ) : (
        <HTMLTable interactive striped compact data-testid="datasets-table" style={{ width: '100%' }}>
          <thead>
            <tr>
              {(['name', 'type', 'fileType', 'amount', 'size', 'columns', 'creator', 'createdAt', 'updatedAt', 'actions'] as const).map((k) => (
                <th key={k}>{t(`columns.${k}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.tableId} data-testid={`dataset-row-${d.name}`}>
                <td title={d.name}>
                  <a href="#" onClick={(e) => (e.preventDefault(), setOpened(d.tableId))}>
                    {d.name.length > NAME_SHOWN ? `${d.name.slice(0, NAME_SHOWN)}…` : d.name}
                  </a>
                </td>
                <td>
                  <Tag minimal>{t(`types.${d.type}`)}</Tag>
                </td>
                <td>{d.fileType}</td>
                <td>{d.amount.toLocaleString(locale)}</td>
                <td>{formatBytes(d.size)}</td>
                <td>{d.columns.length}</td>
                <td>{d.creatorName ?? ''}</td>
                <td>{date.format(new Date(d.createdAt))}</td>
                <td>{date.format(new Date(d.updatedAt))}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="properties" text={t('actions.fields')} onClick={() => setOpened(d.tableId)} data-testid={`dataset-open-${d.name}`} />
                    <Button small icon="th-filtered" text={t('actions.data')} onClick={() => setOperating(d)} data-testid={`dataset-ops-${d.name}`} />
                    {d.fileType !== 'sql' && (
                      <BusyButton
                        small
                        icon="download"
                        text={t('actions.download')}
                        title={t('download.hint', { name: d.fileName })}
                        loading={fetching === d.tableId}
                        onClick={() => void download(d)}
                        data-testid={`dataset-download-${d.name}`}
                      />
                    )}
                    <Button small icon="trash" intent="danger" text={t('actions.delete')} disabled={!canChange} title={refusal} onClick={() => setDeleting(d)} data-testid={`dataset-delete-${d.name}`} />
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {pages > 1 && <Pager page={page} pages={pages} onPage={setPage} prevLabel={t('previousPage')} nextLabel={t('nextPage')} data-testid="datasets-pager" />}

      <UploadDialog
        isOpen={uploading}
        projectId={projectId}
        onClose={() => setUploading(false)}
        onCreated={(d) => {
          setUploading(false);
          setOpened(d.tableId);
        }}
      />
      <ImportDialog
        isOpen={importing}
        projectId={projectId}
        onClose={() => setImporting(false)}
        onImported={(id) => {
          setImporting(false);
          void list.refetch();
          setOpened(id);
        }}
      />
      {/* one dialog per dataset: another starts with no hook holding the previous one's fields (a save wrote them onto it) */}
      <DatasetDialog key={openingKey} tableId={opened} onClose={() => setOpened(null)} />
      <DataOpsDialog dataset={operating} onClose={() => setOperating(null)} />
      <Alert
        isOpen={!!deleting}
        intent="danger"
        icon="trash"
        confirmButtonText={t('remove.ok')}
        cancelButtonText={t('remove.cancel')}
        loading={dropping.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        {deleting && t('remove.confirm', { name: deleting.name })}
      </Alert>
    </div>
  );
}
