/** `/gfs/model`: the user's saved trial results (`getPidDataList`) and one result (`getPidResult`). */
import { useState } from 'react';
import { Button, Callout, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { Pager, pageCount, useListSearch, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { gfsApi } from '../api';
import { useGfsT } from '../i18n';
import { downloadJson, downloadName } from '../model/result';
import { ResultView } from './ResultView';
import './gfs.css';

export function ModelPanel(_props: PanelProps) {
  const { t } = useGfsT();
  const notify = useNotify();
  const search = useListSearch();
  const pageSize = 20;
  const list = gfsApi.endpoints['feedback-control/list'].useQuery({ page: search.page, pageSize, ...(search.search ? { keyword: search.search } : {}) });
  const [selected, setSelected] = useState<string | null>(null);
  const detail = gfsApi.endpoints['feedback-control/get'].useQuery({ id: selected ?? '' }, { skip: !selected });
  const [record] = gfsApi.endpoints['feedback-control/download'].useMutation();
  const rows = list.data?.rows ?? [];

  const download = () => {
    const d = detail.currentData;
    if (!d) return;
    const name = downloadName(d.fileName);
    downloadJson(name, { file: d.fileName, name: d.name, result: d.result });
    notify({ intent: 'success', message: t('save.downloaded', { name }) });
    void record({ pidDataId: d.id, fileName: d.fileName, kind: 'result', improvement: d.improvement });
  };

  let table;
  if (list.isLoading) table = <Spinner size={28} />;
  else if (list.isError) table = <Callout intent="danger" title={t('list.loadFailed')}><Button onClick={() => void list.refetch()}>{t('actions.retry')}</Button></Callout>;
  else if (rows.length === 0) table = <NonIdealState icon="search" title={t('list.empty')} description={t('list.emptyHint')} />;
  else
    table = (
      <HTMLTable compact interactive data-testid="gfs-list">
        <thead>
          <tr>
            <th>{t('list.name')}</th>
            <th>{t('list.file')}</th>
            <th>{t('list.improvement')}</th>
            <th>{t('list.backend')}</th>
            <th>{t('list.created')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.id}
              tabIndex={0}
              aria-selected={r.id === selected}
              onClick={() => setSelected(r.id)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setSelected(r.id))}
            >
              <td>{r.name}</td>
              <td>{r.fileName}</td>
              <td>{(r.improvement * 100).toFixed(1)} %</td>
              <td>{r.backend}</td>
              <td>{new Date(r.createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );

  return (
    <div className="gfs-page" data-testid="gfs-model">
      <InputGroup leftIcon="search" placeholder={t('list.search')} aria-label={t('list.search')} value={search.keyword} onChange={(e) => search.setKeyword(e.currentTarget.value)} />
      <div className="gfs-split">
        <div>
          {table}
          {list.data && list.data.total > pageSize ? <Pager page={search.page} pages={pageCount(list.data.total, pageSize)} onPage={search.setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')} /> : null}
        </div>
        <div>
          {!selected ? <NonIdealState icon="select" title={t('list.select')} /> : !detail.currentData && !detail.isError ? <Spinner size={28} /> : detail.isError ? <Callout intent="danger" title={t('list.loadFailed')} /> : detail.currentData ? (
            <>
              <h3>{detail.currentData.name}</h3>
              <ResultView result={detail.currentData.result} />
              <Button icon="download" onClick={download}>
                {t('actions.download')}
              </Button>
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}
