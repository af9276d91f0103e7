import { useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, HTMLTable, InputGroup, NonIdealState, ProgressBar, Spinner, Tab, Tabs } from '@blueprintjs/core';
import type { FileItem, UploadState } from '@decisio/domain';
import { Alert, failureMessage, forgetUpload, pageCount, Pager, useNotify, useUploadTransport } from '@decisio/sdk-plugin';
import { storageApi } from '../api';
import { formatBytes } from '../format';
import { useStorageT } from '../i18n';
import { CodeFolderButton, CodeViewDialog } from './CodeFiles';
import { DeletedFiles } from './DeletedFiles';
import { ExpandDialog } from './ExpandDialog';
import { partSizeFor, uploadResumable, UploadStopped } from '../upload';

const PAGE_SIZE = 20;
const DATASET_TYPES = /\.(csv|npz|h5)$/i;

type Running = { name: string; sent: number; total: number; resumed: boolean; uploadId: string | null; controller: AbortController };

/** The message of a failed call, unless the workbench already showed one. */

/**
 * Storage management (`/storage-manage`): space used and free (and what uses it), resumable
 * uploads with progress (pause, discard, resume after a reload by choosing the same file), the
 * file list with download and delete, code folders (upload, and a code file's text shown), and
 * the deleted-file records.
 */
export function StoragePanel() {
  const { t, locale } = useStorageT();
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [running, setRunning] = useState<Running | null>(null);
  const [resumeFor, setResumeFor] = useState<UploadState | null>(null);
  const [confirm, setConfirm] = useState<FileItem | null>(null);
  const [viewing, setViewing] = useState<FileItem | null>(null);
  const [expanding, setExpanding] = useState(false);
  const [tab, setTab] = useState<'files' | 'deleted'>('files');
  const input = useRef<HTMLInputElement>(null);

  const space = storageApi.endpoints['storage/freeSpace'].useQuery();
  const files = storageApi.endpoints['storage/files'].useQuery({ page, pageSize: PAGE_SIZE, keyword: keyword.trim() || undefined });
  const open = storageApi.endpoints['storage/uploading'].useQuery();
  const [init] = storageApi.endpoints['storage/init'].useMutation();
  const [parts] = storageApi.endpoints['storage/parts'].useMutation();
  const [complete] = storageApi.endpoints['storage/complete'].useMutation();
  const [abort] = storageApi.endpoints['storage/abort'].useMutation();
  const [remove] = storageApi.endpoints['storage/deleteFile'].useMutation();
  const [downloadUrl] = storageApi.endpoints['storage/downloadUrl'].useMutation();

  const transport = useUploadTransport(init, parts, complete);

  const start = async (file: File) => {
    if (resumeFor && (resumeFor.name !== file.name || resumeFor.size !== file.size)) {
      notify({ message: t('upload.wrongFile', { name: resumeFor.name, size: formatBytes(resumeFor.size) }), intent: 'warning' });
      return;
    }
    setResumeFor(null);
    if (file.size === 0) {
      notify({ message: t('upload.empty', { name: file.name }), intent: 'warning' });
      return;
    }
    const controller = new AbortController();
    setRunning({ name: file.name, sent: 0, total: file.size, resumed: false, uploadId: null, controller });
    try {
      const stored = await uploadResumable(file, transport, {
        purpose: DATASET_TYPES.test(file.name) ? 'dataset' : 'file',
        partSize: partSizeFor(file.size),
        // gzip the parts where that pays (text, csv); binaries stop after one part that does not shrink
        compress: true,
        store: window.localStorage,
        signal: controller.signal,
        onProgress: (p) => setRunning((r) => (r && r.controller === controller ? { ...r, sent: p.sent, resumed: p.resumed, uploadId: p.uploadId } : r)),
      });
      notify({ message: t('upload.done', { name: stored.name }), intent: 'success', icon: 'tick' });
    } catch (err) {
      if (err instanceof UploadStopped) notify({ message: t('upload.stopped'), intent: 'primary' });
      else {
        const message = failureMessage(err, t('upload.failed'));
        if (message) notify({ message, intent: 'danger', icon: 'error' });
      }
      void open.refetch();
    } finally {
      setRunning((r) => (r && r.controller === controller ? null : r));
    }
  };

  const discard = async (uploadId: string) => {
    try {
      await abort({ uploadId }).unwrap();
      forgetUpload(window.localStorage, uploadId);
      notify({ message: t('upload.discarded'), intent: 'success' });
    } catch (err) {
      const message = failureMessage(err, t('upload.failed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };

  const download = async (f: FileItem) => {
    try {
      const { url } = await downloadUrl({ fileId: f.fileId }).unwrap();
      // The token cookie authenticates the GET; the browser streams the file to disk.
      const a = document.createElement('a');
      a.href = url;
      a.download = f.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      const message = failureMessage(err, t('files.downloadFailed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };

  const doDelete = async (f: FileItem) => {
    setConfirm(null);
    try {
      await remove({ fileId: f.fileId }).unwrap();
      notify({ message: t('files.deleted', { name: f.name }), intent: 'success', icon: 'trash' });
    } catch (err) {
      const message = failureMessage(err, t('files.deleteFailed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };

  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const s = space.data;
  const usedFraction = s ? Math.min(1, s.usedBytes / Math.max(1, s.totalBytes)) : 0;
  const interrupted = (open.data ?? []).filter((u) => u.uploadId !== running?.uploadId);
  const rows = files.data?.rows ?? [];
  const pages = pageCount(files.data?.total ?? 0, PAGE_SIZE);

  let list;
  if (files.isLoading) list = <Spinner data-testid="storage-loading" />;
  else if (files.isError)
    list = (
      <NonIdealState
        icon="error"
        title={t('files.loadFailed')}
        action={<Button icon="refresh" text={t('files.retry')} onClick={() => void files.refetch()} />}
      />
    );
  else if (rows.length === 0)
    list = keyword.trim() ? (
      <NonIdealState icon="search" title={t('files.noMatch')} />
    ) : (
      <NonIdealState icon="folder-open" title={t('files.emptyTitle')} description={t('files.emptyDescription')} />
    );
  else
    list = (
      <>
        <HTMLTable compact striped interactive className="dc-storage-table" data-testid="storage-rows" style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('files.name')}</th>
              <th>{t('files.size')}</th>
              <th>{t('files.time')}</th>
              <th>{t('files.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr key={f.fileId}>
                <td>{f.path}</td>
                <td>{formatBytes(f.size)}</td>
                <td>{dateFormat.format(new Date(f.createdAt))}</td>
                <td>
                  <ButtonGroup variant="minimal">
                    {f.kind === 'code' && <Button icon="eye-open" aria-label={t('code.view')} title={t('code.view')} onClick={() => setViewing(f)} />}
                    <Button icon="download" aria-label={t('files.download')} title={t('files.download')} onClick={() => void download(f)} />
                    <Button icon="trash" intent="danger" aria-label={t('files.delete')} title={t('files.delete')} onClick={() => setConfirm(f)} />
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        {pages > 1 && (
          <Pager page={page} pages={pages} onPage={setPage} prevLabel={t('files.prev')} nextLabel={t('files.next')} style={{ marginTop: 8 }}>
            {t('files.page', { page, pages })}
          </Pager>
        )}
      </>
    );

  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }}>
      <Card data-testid="storage-usage">
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <h4 className="bp6-heading" style={{ margin: 0 }}>
            {t('usage.title')}
          </h4>
          <Button icon="add" text={t('expand.button')} disabled={!s} onClick={() => setExpanding(true)} />
        </div>
        {space.isLoading ? (
          <Spinner size={20} />
        ) : space.isError || !s ? (
          <Callout intent="danger">{t('usage.loadFailed')}</Callout>
        ) : (
          <>
            <ProgressBar className="dc-gap-top" value={usedFraction} stripes={false} animate={false} intent={usedFraction > 0.9 ? 'danger' : 'primary'} aria-label={t('usage.title')} />
            <p style={{ marginTop: 8, marginBottom: 0 }}>
              {t('usage.label', { used: formatBytes(s.usedBytes), total: formatBytes(s.totalBytes) })} · {t('usage.free', { free: formatBytes(s.freeBytes) })}
            </p>
            {s.breakdown && (
              <p className="bp6-text-muted" data-testid="storage-breakdown" title={t('breakdown.explain')} style={{ marginTop: 4, marginBottom: 0 }}>
                {t('breakdown.title')}:{' '}
                {(['files', 'code', 'datasets', 'uploading', 'artefacts'] as const)
                  .filter((k) => k === 'files' || s.breakdown![k] > 0)
                  .map((k) => t(`breakdown.${k}`, { size: formatBytes(s.breakdown![k]) }))
                  .join(' · ')}
              </p>
            )}
            {usedFraction > 0.9 && <Callout intent="warning" style={{ marginTop: 8 }}>{t('usage.full')}</Callout>}
          </>
        )}
      </Card>

      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Button icon="upload" intent="primary" text={t('upload.button')} disabled={running !== null} onClick={() => input.current?.click()} />
        <CodeFolderButton disabled={running !== null} />
        <input
          ref={input}
          type="file"
          hidden
          data-testid="storage-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void start(file);
          }}
        />
        <InputGroup
          leftIcon="search"
          placeholder={t('files.search')}
          aria-label={t('files.search')}
          value={keyword}
          onValueChange={(v) => {
            setKeyword(v);
            setPage(1);
          }}
        />
      </div>

      {running && (
        <Card data-testid="storage-progress">
          <p>{t('upload.uploading', { name: running.name })}</p>
          <ProgressBar value={running.total ? running.sent / running.total : 0} intent="primary" />
          <p style={{ marginTop: 8 }}>
            {t('upload.progress', {
              sent: formatBytes(running.sent),
              total: formatBytes(running.total),
              percent: running.total ? Math.floor((running.sent / running.total) * 100) : 0,
            })}
            {running.resumed ? ` · ${t('upload.resumed')}` : ''}
          </p>
          <ButtonGroup>
            <Button icon="pause" text={t('upload.pause')} onClick={() => running.controller.abort()} />
            {running.uploadId && (
              <Button
                icon="cross"
                intent="danger"
                text={t('upload.discard')}
                onClick={() => {
                  const id = running.uploadId!;
                  running.controller.abort();
                  void discard(id);
                }}
              />
            )}
          </ButtonGroup>
        </Card>
      )}

      {interrupted.length > 0 && (
        <Card data-testid="storage-interrupted">
          <h5 className="bp6-heading">{t('upload.interrupted')}</h5>
          {interrupted.map((u) => (
            <div key={u.uploadId} style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 4 }}>
              <span style={{ flex: 1 }}>
                {u.name} · {t('upload.received', { sent: formatBytes(u.receivedBytes), total: formatBytes(u.size) })}
              </span>
              <Button
                small
                icon="play"
                text={t('upload.resume')}
                disabled={running !== null}
                onClick={() => {
                  setResumeFor(u);
                  input.current?.click();
                }}
              />
              <Button small icon="cross" intent="danger" text={t('upload.discard')} onClick={() => void discard(u.uploadId)} />
            </div>
          ))}
        </Card>
      )}

      <Tabs id="storage-tabs" selectedTabId={tab} onChange={(id) => setTab(id as 'files' | 'deleted')}>
        <Tab id="files" title={t('tabs.files')} />
        <Tab id="deleted" title={t('tabs.deleted')} />
      </Tabs>
      {tab === 'files' ? list : <DeletedFiles />}

      <CodeViewDialog file={viewing} onClose={() => setViewing(null)} />
      {s && <ExpandDialog isOpen={expanding} totalBytes={s.totalBytes} onClose={() => setExpanding(false)} />}
      <Alert
        isOpen={confirm !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('files.delete')}
        cancelButtonText={t('files.cancel')}
        onConfirm={() => confirm && void doDelete(confirm)}
        onCancel={() => setConfirm(null)}
      >
        {confirm ? t('files.confirmDelete', { name: confirm.name }) : null}
      </Alert>
    </div>
  );
}
