import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Callout,
  Card,
  Classes,
  DialogBody,
  DialogFooter,
  FormGroup,
  H4,
  H5,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Tab,
  Tabs,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { MARKET_LIMITS, type MarketKind, type MarketModelDetail, type MarketVersion, type MarketVisibility } from '@decisio/domain';
import { Alert, BusyButton, ChoiceField, Dialog, DataTable, failureMessage, fieldErrorsOf, formatBytes, ListBody, PanelPage, Pager, pageCount, useAppLocation, useFailureNotice, useFocusBackWhenDone, useListSearch, useNavigate, useNotify } from '@decisio/sdk-plugin';
import { marketApi } from '../api';
import { useMarketT } from '../i18n';
import { editableProjects, figure, publishable } from '../model/market';

const PAGE_SIZE = 20;
type Scope = 'all' | 'mine' | 'tenant' | 'public';

/** The form of `market/publish`: a trained environment or policy of a project, as a new model or a new version. */
function PublishDialog({ isOpen, onClose, model, onPublished }: { isOpen: boolean; onClose(): void; model: MarketModelDetail | null; onPublished(modelId: string): void }) {
  const { t } = useMarketT();
  const notify = useNotify();
  const projects = marketApi.endpoints['market/projects'].useQuery(undefined, { skip: !isOpen });
  const [projectId, setProjectId] = useState('');
  const [kind, setKind] = useState<MarketKind>(model?.kind ?? 'policy');
  const [recordId, setRecordId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<MarketVisibility>(model?.visibility ?? 'tenant');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const trainings = marketApi.endpoints['market/trainings'].useQuery({ projectId, kind }, { skip: !isOpen || !projectId });
  const [publish, publishing] = marketApi.endpoints['market/publish'].useMutation();
  useEffect(() => {
    if (!isOpen) return;
    setKind(model?.kind ?? 'policy');
    setVisibility(model?.visibility ?? 'tenant');
    setRecordId('');
    setErrors({});
    setFailure(null);
  }, [isOpen, model]);
  // the chosen project's trainings of the chosen kind only, never the previous choice's while these load
  const records = publishable(trainings.currentData?.rows ?? []);
  const submit = async () => {
    const missing: Record<string, string> = {};
    if (!recordId) missing.recordId = t('publishDialog.required');
    if (!model && !name.trim()) missing.name = t('publishDialog.required');
    setErrors(missing);
    setFailure(null);
    if (Object.keys(missing).length) return;
    try {
      const r = await publish({
        kind,
        recordId,
        ...(model ? { modelId: model.modelId } : { name: name.trim() }),
        ...(description.trim() ? { description: description.trim() } : {}),
        visibility,
        ...(note.trim() ? { note: note.trim() } : {}),
      }).unwrap();
      notify({ message: t('publishDialog.done', { name: r.name, version: r.latestVersion }), intent: 'success', icon: 'tick' });
      onPublished(r.modelId);
      onClose();
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      setFailure(t('publishDialog.failed', { message: failureMessage(err, '') ?? '' }));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={model ? t('publishDialog.titleVersion', { name: model.name }) : t('publishDialog.title')} style={{ width: 560 }}>
      <DialogBody>
        <ChoiceField
          id="market-publish-project"
          label={t('publishDialog.project')}
          required
          value={projectId}
          onChange={(v) => {
            setProjectId(v);
            setRecordId('');
          }}
          placeholder={t('publishDialog.chooseProject')}
          choices={editableProjects(projects.data?.rows ?? []).map((p) => ({ value: p.projectId, label: p.name }))}
          fill
        />
        <FormGroup label={t('publishDialog.kind')} labelFor="market-publish-kind">
          <HTMLSelect id="market-publish-kind" fill value={kind} disabled={!!model} onChange={(e) => (setKind(e.currentTarget.value as MarketKind), setRecordId(''))}>
            <option value="policy">{t('kind.policy')}</option>
            <option value="environment">{t('kind.environment')}</option>
          </HTMLSelect>
        </FormGroup>
        <ChoiceField
          id="market-publish-record"
          label={t('publishDialog.record')}
          required
          error={errors.recordId}
          value={recordId}
          onChange={setRecordId}
          placeholder={projectId && trainings.currentData && records.length === 0 ? t('publishDialog.noRecord') : t('publishDialog.chooseRecord')}
          choices={records.map((r) => ({ value: r.id, label: `${r.name} (${kind === 'policy' ? figure(r.reward) : figure(r.score)})` }))}
          disabled={!projectId}
          fill
        />
        {!model && (
          <>
            <FormGroup label={t('publishDialog.name')} labelFor="market-publish-name" labelInfo="*" intent={errors.name ? 'danger' : 'none'} helperText={errors.name}>
              <InputGroup id="market-publish-name" value={name} maxLength={MARKET_LIMITS.nameMax} onChange={(e) => setName(e.currentTarget.value)} />
            </FormGroup>
            <FormGroup label={t('publishDialog.description')} labelFor="market-publish-description" helperText={errors.description}>
              <TextArea id="market-publish-description" fill value={description} maxLength={MARKET_LIMITS.descriptionMax} onChange={(e) => setDescription(e.currentTarget.value)} />
            </FormGroup>
          </>
        )}
        <FormGroup label={t('publishDialog.visibility')} labelFor="market-publish-visibility">
          <HTMLSelect id="market-publish-visibility" fill value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as MarketVisibility)}>
            <option value="tenant">{t('publishDialog.visibilityTenant')}</option>
            <option value="public">{t('publishDialog.visibilityPublic')}</option>
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('publishDialog.note')} labelFor="market-publish-note">
          <InputGroup id="market-publish-note" value={note} maxLength={MARKET_LIMITS.noteMax} onChange={(e) => setNote(e.currentTarget.value)} />
        </FormGroup>
        {failure && (
          <Callout intent="danger" data-testid="market-publish-failure">
            {failure}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('publishDialog.cancel')}</Button>
            <BusyButton intent="primary" loading={publishing.isLoading} onClick={() => void submit()} data-testid="market-publish-submit">
              {t('publishDialog.submit')}
            </BusyButton>
          </>
        }
      />
    </Dialog>
  );
}

/** The form of `market/import`: a version into a project the caller may edit. */
function ImportDialog({ model, version, onClose }: { model: MarketModelDetail; version: MarketVersion | null; onClose(): void }) {
  const { t } = useMarketT();
  const navigate = useNavigate();
  const projects = marketApi.endpoints['market/projects'].useQuery(undefined, { skip: !version });
  const [projectId, setProjectId] = useState('');
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ projectId: string; solutionId: string; policyId: string | null } | null>(null);
  const [importVersion, importing] = marketApi.endpoints['market/import'].useMutation();
  // The busy Import drops the focus to the page, and the dialog stays open: it comes back to Open
  // (imported) or to Import (failed).
  const openRef = useRef<HTMLButtonElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  useFocusBackWhenDone(importing.isLoading, () => openRef.current ?? submitRef.current);
  useEffect(() => {
    setDone(null);
    setFailure(null);
  }, [version]);
  const submit = async () => {
    if (!version || !projectId) return;
    setFailure(null);
    try {
      setDone(await importVersion({ modelId: model.modelId, versionId: version.versionId, projectId, ...(name.trim() ? { name: name.trim() } : {}) }).unwrap());
    } catch (err) {
      setFailure(t('importDialog.failed', { message: failureMessage(err, '') ?? '' }));
    }
  };
  const open = () => {
    if (!done) return;
    // The policy list (a policy) or the environment list (an environment) of the new solution.
    navigate(done.policyId ? '/workflow/policy' : '/workflow/simulator', { search: { projectId: done.projectId, solutionId: done.solutionId } });
    onClose();
  };
  return (
    <Dialog isOpen={!!version} onClose={onClose} title={version ? t('importDialog.title', { name: model.name, version: version.version }) : ''} style={{ width: 520 }}>
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>{t('importDialog.intro')}</p>
        <ChoiceField
          id="market-import-project"
          label={t('importDialog.project')}
          required
          value={projectId}
          onChange={setProjectId}
          placeholder={t('importDialog.chooseProject')}
          choices={editableProjects(projects.data?.rows ?? []).map((p) => ({ value: p.projectId, label: p.name }))}
          fill
        />
        <FormGroup label={t('importDialog.solutionName')} labelFor="market-import-name">
          <InputGroup id="market-import-name" value={name} maxLength={50} placeholder={t('importDialog.solutionPlaceholder')} onChange={(e) => setName(e.currentTarget.value)} />
        </FormGroup>
        {failure && (
          <Callout intent="danger" data-testid="market-import-failure">
            {failure}
          </Callout>
        )}
        {done && (
          <Callout intent="success" data-testid="market-import-done">
            {t('importDialog.done')}{' '}
            <Button ref={openRef} size="small" intent="success" onClick={open} data-testid="market-import-open">
              {t('importDialog.open')}
            </Button>
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('importDialog.cancel')}</Button>
            {/* eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Open or Submit when done */}
            <Button ref={submitRef} intent="primary" disabled={!projectId || !!done} loading={importing.isLoading} onClick={() => void submit()} data-testid="market-import-submit">
              {t('importDialog.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

/** One model: description, graph, versions with their report, and the actions the caller may take. */
function ModelDetail({ modelId, onClose, onRemoved, onNewVersion }: { modelId: string; onClose(): void; onRemoved(): void; onNewVersion(model: MarketModelDetail): void }) {
  const { t, locale } = useMarketT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const detail = marketApi.endpoints['market/get'].useQuery({ modelId });
  const [onnx] = marketApi.endpoints['market/onnx'].useMutation();
  const [unpublish] = marketApi.endpoints['market/unpublish'].useMutation();
  const [importing, setImporting] = useState<MarketVersion | null>(null);
  const [confirm, setConfirm] = useState<{ versionId?: string; version?: number } | null>(null);
  const [report, setReport] = useState<string | null>(null);
  if (detail.isError) return <Callout intent="danger" title={failureMessage(detail.error, t('detail.failed')) ?? t('detail.failed')} />;
  const m = detail.data;
  if (!m) return <div className={Classes.SKELETON} style={{ height: 120 }} />;
  const download = async (v: MarketVersion) => {
    try {
      const { url, name } = await onnx({ versionId: v.versionId }).unwrap();
      // The token cookie authenticates the GET; the browser saves the file.
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      fail(err, t('detail.onnxFailed'));
    }
  };
  const doUnpublish = async () => {
    const target = confirm;
    setConfirm(null);
    if (!target) return;
    try {
      const r = await unpublish({ modelId: m.modelId, ...(target.versionId ? { versionId: target.versionId } : {}) }).unwrap();
      notify({ message: t('detail.unpublished'), intent: 'success', icon: 'tick' });
      if (r.removed) onRemoved();
    } catch (err) {
      fail(err, t('detail.failed'));
    }
  };
  const agent = m.versions[0]?.report.agent;
  return (
    <Card data-testid="market-detail" style={{ padding: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <H4 style={{ margin: 0 }}>{m.name}</H4>
        <Tag intent={m.kind === 'policy' ? 'primary' : 'none'}>{t(`kind.${m.kind}`)}</Tag>
        <Tag minimal>{t(`visibility.${m.visibility}`)}</Tag>
        <span className={Classes.TEXT_MUTED}>{m.publisherName}</span>
        <span style={{ flex: 1 }} />
        {m.mine && (
          <>
            <Button icon="upload" onClick={() => onNewVersion(m)} data-testid="market-new-version">
              {t('detail.newVersion')}
            </Button>
            <Button icon="remove" intent="danger" onClick={() => setConfirm({})} data-testid="market-unpublish">
              {t('detail.unpublish')}
            </Button>
          </>
        )}
        <Button icon="cross" variant="minimal" aria-label={t('detail.close')} onClick={onClose} />
      </div>
      <H5 style={{ marginTop: 12 }}>{t('detail.description')}</H5>
      <p className={m.description ? undefined : Classes.TEXT_MUTED}>{m.description ?? t('detail.noDescription')}</p>
      <H5>{t('detail.graph')}</H5>
      <div data-testid="market-graph">
        {(m.versions[0]?.report.nodes ?? []).map((n) => (
          <Tag key={n} minimal={n !== agent} intent={n === agent ? 'success' : 'none'} style={{ margin: 2 }}>
            {n}
          </Tag>
        ))}
      </div>
      <H5 style={{ marginTop: 12 }}>{t('detail.versions')}</H5>
      <DataTable columns={[t('list.version'), t('detail.note'), t('list.score'), t('list.reward'), t('detail.algorithm'), t('detail.rows'), t('detail.trained'), t('detail.size'), '']} testId="market-versions">
        {m.versions.flatMap((v) => [
          <tr key={v.versionId} data-testid={`market-version-${v.version}`}>
            <td>{t('detail.version', { version: v.version })}</td>
            <td>
              {v.note ?? ''}
              {v.report.environment && <div className={Classes.TEXT_MUTED}>{t('detail.environment', { name: v.report.environment.name })}</div>}
              {v.report.rewardName && <div className={Classes.TEXT_MUTED}>{`${t('detail.rewardName')}: ${v.report.rewardName}`}</div>}
            </td>
            <td data-testid={`market-version-${v.version}-score`}>{figure(v.report.score)}</td>
            <td data-testid={`market-version-${v.version}-reward`}>{figure(v.report.reward)}</td>
            <td>{v.report.algorithm}</td>
            <td>{v.report.rows ?? '—'}</td>
            <td>{v.report.trainedAt ? new Date(v.report.trainedAt).toLocaleString(locale) : '—'}</td>
            <td>{formatBytes(v.size)}</td>
            <td style={{ whiteSpace: 'nowrap' }}>
              <Button size="small" intent="primary" icon="import" onClick={() => setImporting(v)} data-testid={`market-import-${v.version}`}>
                {t('detail.import')}
              </Button>{' '}
              {v.hasOnnx && (
                <Button size="small" icon="download" onClick={() => void download(v)} data-testid={`market-onnx-${v.version}`}>
                  {t('detail.onnx')}
                </Button>
              )}{' '}
              {m.mine && m.versions.length > 1 && (
                <Button size="small" intent="danger" variant="minimal" onClick={() => setConfirm({ versionId: v.versionId, version: v.version })} data-testid={`market-unpublish-${v.version}`}>
                  {t('detail.unpublishVersion')}
                </Button>
              )}{' '}
              <Button size="small" variant="minimal" icon={report === v.versionId ? 'chevron-up' : 'chevron-down'} onClick={() => setReport(report === v.versionId ? null : v.versionId)} data-testid={`market-report-${v.version}`}>
                {t('detail.report')}
              </Button>
            </td>
          </tr>,
          ...(report === v.versionId
            ? [
                <tr key={`${v.versionId}-report`} data-testid={`market-report-${v.version}-body`}>
                  <td colSpan={9}>
                    <div className={Classes.TEXT_MUTED}>{t('detail.hyperparameters')}</div>
                    <div>
                      {Object.entries(v.report.hyperparameters).map(([k, value]) => (
                        <Tag key={k} minimal style={{ margin: 2 }}>
                          {`${k}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`}
                        </Tag>
                      ))}
                      {Object.keys(v.report.hyperparameters).length === 0 && <span>{t('detail.defaults')}</span>}
                    </div>
                    {v.report.memberScores.length > 1 && (
                      <div style={{ marginTop: 4 }}>
                        <span className={Classes.TEXT_MUTED}>{t('detail.memberScores')}</span> {v.report.memberScores.map((x) => figure(x)).join(' · ')}
                      </div>
                    )}
                  </td>
                </tr>,
              ]
            : []),
        ])}
      </DataTable>
      <ImportDialog model={m} version={importing} onClose={() => setImporting(null)} />
      <Alert
        isOpen={!!confirm}
        intent="danger"
        icon="remove"
        confirmButtonText={t('detail.confirm')}
        cancelButtonText={t('detail.cancel')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void doUnpublish()}
      >
        {confirm?.versionId ? t('detail.confirmVersion', { version: confirm.version }) : t('detail.confirmModel', { name: m.name })}
      </Alert>
    </Card>
  );
}

/** The market: search, kind and scope filters, the models, the chosen model's detail, publishing. */
export function MarketPanel(_props: { panelId: string }) {
  const { t, locale } = useMarketT();
  const navigate = useNavigate();
  const location = useAppLocation();
  const modelId = typeof location.search.modelId === 'string' ? location.search.modelId : '';
  const [kind, setKind] = useState<'' | MarketKind>('');
  const [scope, setScope] = useState<Scope>('all');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [kind, scope] });
  const list = marketApi.endpoints['market/list'].useQuery({ page, pageSize: PAGE_SIZE, scope, ...(search ? { keyword: search } : {}), ...(kind ? { kind } : {}) });
  const [publishing, setPublishing] = useState<{ model: MarketModelDetail | null } | null>(location.search.publish ? { model: null } : null);
  // Opening or closing a model is the user's own step: a history entry of its own, so Back returns
  // to the list or the model before. A model just unpublished replaces its entry: Back never
  // returns to it.
  const select = (id: string, replace = false) => navigate(location.pathname, { search: id ? { modelId: id } : {}, replace });
  const rows = list.data?.rows ?? [];
  return (
    <div style={{ overflow: 'auto', height: '100%' }} data-testid="market">
      <PanelPage intro={t('intro')}>
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
          <InputGroup leftIcon="search" placeholder={t('search')} aria-label={t('search')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} style={{ width: 240 }} />
          <HTMLSelect aria-label={t('kind.all')} value={kind} onChange={(e) => setKind(e.currentTarget.value as '' | MarketKind)}>
            <option value="">{t('kind.all')}</option>
            <option value="environment">{t('kind.environment')}</option>
            <option value="policy">{t('kind.policy')}</option>
          </HTMLSelect>
          <span style={{ flex: 1 }} />
          <Button intent="primary" icon="upload" onClick={() => setPublishing({ model: null })} data-testid="market-publish">
            {t('publish')}
          </Button>
        </div>
        <Tabs id="market-scope" selectedTabId={scope} onChange={(id) => setScope(id as Scope)}>
          {(['all', 'mine', 'tenant', 'public'] as const).map((s) => (
            <Tab key={s} id={s} title={t(`scope.${s}`)} />
          ))}
        </Tabs>
        <ListBody query={list} failed={t('list.failed')} retry={t('list.retry')} empty={list.data && rows.length === 0 ? <NonIdealState icon="shop" title={t('list.empty')} /> : null}>
          <DataTable interactive columns={[t('list.name'), t('list.kind'), t('list.visibility'), t('list.version'), t('list.score'), t('list.reward'), t('list.publisher'), t('list.imports'), t('list.updated')]} testId="market-rows">
            {rows.map((m) => (
              <tr key={m.modelId} onClick={() => select(m.modelId)} data-testid={`market-row-${m.modelId}`} style={{ cursor: 'pointer' }}>
                <td>
                  <a
                    href="#"
                    onClick={(e) => {
                      // The row hears the click too: one click, one history entry.
                      e.preventDefault();
                      e.stopPropagation();
                      select(m.modelId);
                    }}
                  >
                    {m.name}
                  </a>
                </td>
                <td>{t(`kind.${m.kind}`)}</td>
                <td>{t(`visibility.${m.visibility}`)}</td>
                <td>{t('detail.version', { version: m.latestVersion })}</td>
                <td>{figure(m.score)}</td>
                <td>{figure(m.reward)}</td>
                <td>{m.publisherName}</td>
                <td>{m.imports}</td>
                <td>{new Date(m.updatedAt).toLocaleDateString(locale)}</td>
              </tr>
            ))}
          </DataTable>
          {list.data && list.data.total > PAGE_SIZE && <Pager page={page} pages={pageCount(list.data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')} />}
        </ListBody>
        {modelId && <ModelDetail key={modelId} modelId={modelId} onClose={() => select('')} onRemoved={() => select('', true)} onNewVersion={(model) => setPublishing({ model })} />}
      </PanelPage>
      <PublishDialog isOpen={!!publishing} model={publishing?.model ?? null} onClose={() => setPublishing(null)} onPublished={(id) => select(id)} />
    </div>
  );
}
