import { useState } from 'react';
import { Button, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { pageCount, Pager } from '@decisio/sdk-plugin';
import { storageApi } from '../api';
import { formatBytes } from '../format';
import { useStorageT } from '../i18n';

const PAGE_SIZE = 20;

/**
 * Deleted-file records (`file/getDeleteFileRecord`): the files the user deleted, newest deletion
 * first, with their size and when they were uploaded and deleted. Their bytes are gone and their
 * space was freed; the record stays so the user can see what went and when.
 */
export function DeletedFiles() {
  const { t, locale } = useStorageT();
  const [page, setPage] = useState(1);
  const records = storageApi.endpoints['storage/deletedFiles'].useQuery({ page, pageSize: PAGE_SIZE });
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  if (records.isLoading) return <Spinner data-testid="storage-deleted-loading" />;
  if (records.isError)
    return <NonIdealState icon="error" title={t('deleted.loadFailed')} action={<Button icon="refresh" text={t('files.retry')} onClick={() => void records.refetch()} />} />;
  const rows = records.data?.rows ?? [];
  if (rows.length === 0) return <NonIdealState icon="trash" title={t('deleted.emptyTitle')} description={t('deleted.emptyDescription')} />;
  const pages = pageCount(records.data?.total ?? 0, PAGE_SIZE);
  return (
    <>
      <p className="bp6-text-muted" style={{ margin: 0 }}>
        {t('deleted.explain')}
      </p>
      <HTMLTable compact striped className="dc-storage-table" data-testid="storage-deleted-rows" style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('files.name')}</th>
            <th>{t('files.size')}</th>
            <th>{t('files.time')}</th>
            <th>{t('deleted.time')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.fileId}>
              <td>{f.path}</td>
              <td>{formatBytes(f.size)}</td>
              <td>{dateFormat.format(new Date(f.createdAt))}</td>
              <td>{f.deletedAt ? dateFormat.format(new Date(f.deletedAt)) : ''}</td>
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
}
