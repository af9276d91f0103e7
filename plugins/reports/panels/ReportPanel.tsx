import { useState } from 'react';
import { Button, ButtonGroup, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag, TextArea, type Intent } from '@blueprintjs/core';
import { REPORT_LIMITS, REPORT_TYPES, isReportAmount, type AnalysisReport, type ReportComparison, type ReportStatus, type ReportType } from '@decisio/domain';
import { Alert, Dialog, BusyButton, Pager, pageCount, useNotify, useOpeningKey, useProjectLink, fieldErrorsOf, useFailureNotice, ChoiceField, DataTable, ListBody, PanelPage } from '@decisio/sdk-plugin';
import { reportsApi } from '../api';
import { useReportsT } from '../i18n';
import { useSolutionChoice } from '@decisio/sdk-plugin/trainings/pickers';
import { ReportChart } from './ReportChart';

const PAGE_SIZE = 20;
const INTENT: Record<ReportStatus, Intent> = { created: 'none', analysing: 'primary', finished: 'success', failed: 'danger' };

function ReportStatusTag({ status }: { status: ReportStatus }) {
  const { t } = useReportsT();
  return (
    <Tag intent={INTENT[status]} minimal round>
      {t(`report.status.${status}`)}
    </Tag>
  );
}

type Form = { name: string; type: ReportType; remark: string; decisionAId: string; decisionBId: string; realRevenue: string; realOrders: string; realCost: string };
const EMPTY: Form = { name: '', type: 'coupon', remark: '', decisionAId: '', decisionBId: '', realRevenue: '', realOrders: '', realCost: '' };

/** The rules of spec workflow §5 "Report": name required, two different decisions, real totals filled, 15 integer digits and 2 decimals. */
export function validateReportForm(f: Form): Partial<Record<keyof Form, 'required' | 'sameDecisions' | 'amount'>> {
  const e: Partial<Record<keyof Form, 'required' | 'sameDecisions' | 'amount'>> = {};
  if (f.name.trim() === '') e.name = 'required';
  if (!f.decisionAId) e.decisionAId = 'required';
  if (!f.decisionBId) e.decisionBId = 'required';
  else if (f.decisionBId === f.decisionAId) e.decisionBId = 'sameDecisions';
  for (const k of ['realRevenue', 'realOrders', 'realCost'] as const) {
    if (f[k].trim() === '') e[k] = 'required';
    else if (!isReportAmount(f[k])) e[k] = 'amount';
  }
  return e;
}

/** Create dialog of an analysis report. */
function CreateReportDialog({ solutionId, isOpen, onClose }: { solutionId: string; isOpen: boolean; onClose(): void }) {
  const { t } = useReportsT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const decisions = reportsApi.endpoints['reports/decisions'].useQuery({ solutionId }, { skip: !isOpen });
  const [create, { isLoading }] = reportsApi.endpoints['reports/create'].useMutation();
  const [form, setForm] = useState<Form>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const local = touched ? validateReportForm(form) : {};
  const finished = (decisions.data?.rows ?? []).filter((d) => d.state === 'successful');
  const set = (k: keyof Form) => (value: string) => setForm({ ...form, [k]: value });
  const helper = (k: keyof Form) => (local[k] ? t(`report.form.${local[k]}`) : server[k]);
  const intent = (k: keyof Form): Intent => (local[k] || server[k] ? 'danger' : 'none');

  const submit = async () => {
    setTouched(true);
    if (Object.keys(validateReportForm(form)).length > 0) return;
    try {
      const r = await create({ solutionId, ...form, name: form.name.trim() }).unwrap();
      notify({ message: t('report.createdToast', { name: r.name }), intent: 'success' });
      setForm(EMPTY);
      setTouched(false);
      setServer({});
      onClose();
    } catch (err) {
      setServer(fieldErrorsOf(err));
      fail(err, t('report.form.failed'));
    }
  };
  const decisionSelect = (k: 'decisionAId' | 'decisionBId', label: string) => (
    <ChoiceField
      id={`report-${k}`}
      label={label}
      required
      error={helper(k)}
      fill
      value={form[k]}
      onChange={set(k)}
      placeholder={finished.length ? t('report.form.chooseDecision') : t('report.form.noDecisions')}
      choices={finished.map((d) => ({ value: d.id, label: d.name }))}
    />
  );
  const terms = form.type;
  const amount = (k: 'realRevenue' | 'realOrders' | 'realCost', term: 'revenue' | 'orders' | 'cost') => (
    <FormGroup label={`${t(`report.form.${k}`)} (${t(`report.terms.${terms}.${term}`)})`} labelFor={`report-${k}`} labelInfo="*" intent={intent(k)} helperText={helper(k)}>
      <InputGroup id={`report-${k}`} inputMode="decimal" value={form[k]} onChange={(e) => set(k)(e.target.value)} intent={intent(k)} />
    </FormGroup>
  );
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('report.form.title')} icon="timeline-bar-chart">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          <FormGroup label={t('report.name')} labelFor="report-name" labelInfo="*" intent={intent('name')} helperText={helper('name')}>
            <InputGroup id="report-name" autoFocus value={form.name} maxLength={REPORT_LIMITS.nameMax} onChange={(e) => set('name')(e.target.value)} intent={intent('name')} />
          </FormGroup>
          <FormGroup label={t('report.typeLabel')} labelFor="report-type">
            <HTMLSelect id="report-type" value={form.type} onChange={(e) => set('type')(e.currentTarget.value)}>
              {REPORT_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {t(`report.type.${ty}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {decisions.isLoading ? <Spinner size={20} /> : null}
          {decisionSelect('decisionAId', t('report.form.decisionA'))}
          {decisionSelect('decisionBId', t('report.form.decisionB'))}
          {amount('realRevenue', 'revenue')}
          {amount('realOrders', 'orders')}
          {amount('realCost', 'cost')}
          <FormGroup label={t('report.form.remark')} labelFor="report-remark">
            <TextArea id="report-remark" fill value={form.remark} maxLength={REPORT_LIMITS.remarkMax} onChange={(e) => set('remark')(e.target.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('report.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" loading={isLoading} text={t('report.submit')} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

function RenameDialog({ report, onClose }: { report: AnalysisReport | null; onClose(): void }) {
  const { t } = useReportsT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const [rename, { isLoading }] = reportsApi.endpoints['reports/rename'].useMutation();
  const [name, setName] = useState<string | null>(null);
  const value = name ?? report?.name ?? '';
  const missing = value.trim() === '';
  const close = () => {
    setName(null);
    onClose();
  };
  return (
    <Dialog isOpen={report !== null} onClose={close} title={t('report.form.renameTitle')} icon="edit">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!report || missing) return;
          void rename({ id: report.id, name: value.trim() })
            .unwrap()
            .then(
              () => {
                notify({ message: t('report.renamed'), intent: 'success' });
                close();
              },
              (err: unknown) => fail(err, t('report.actionFailed')),
            );
        }}
      >
        <DialogBody>
          <FormGroup label={t('report.name')} labelFor="report-rename" labelInfo="*" intent={missing ? 'danger' : 'none'} helperText={missing ? t('report.form.required') : undefined}>
            <InputGroup id="report-rename" autoFocus value={value} maxLength={REPORT_LIMITS.nameMax} onChange={(e) => setName(e.target.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('report.cancel')} onClick={close} />
              <BusyButton type="submit" intent="primary" loading={isLoading} disabled={missing} text={t('report.save')} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

const num = (v: number | null, locale: string) => (v === null ? '—' : v.toLocaleString(locale, { maximumFractionDigits: 4 }));
const pct = (v: number | null, locale: string) => (v === null ? '—' : v.toLocaleString(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }));

/**
 * The comparison of a finished report (`view.comparison`): both decisions against the data as
 * logged (reward per step), the scenario's own measures, the real totals projected by them, and
 * per-field means. Every figure is the server's (`compareDecisions` of `@decisio/domain`).
 */
function ReportComparisonView({ c, terms, real, nameA, nameB }: { c: ReportComparison; terms: ReportType; real: Record<'revenue' | 'orders' | 'cost', string>; nameA: string; nameB: string }) {
  const { t, locale } = useReportsT();
  const head = (
    <thead>
      <tr>
        <th>{t('report.compare.figure')}</th>
        <th>A: {nameA}</th>
        <th>B: {nameB}</th>
        <th>{t('report.compare.logged')}</th>
        <th>{t('report.compare.changeA')}</th>
        <th>{t('report.compare.changeB')}</th>
      </tr>
    </thead>
  );
  return (
    <>
      <h4 style={{ margin: 0 }}>{t('report.compare.title')}</h4>
      <p className="bp6-text-muted" style={{ margin: 0 }}>
        {t('report.compare.explain')}
      </p>
      {!c.sameData && <Callout intent="warning" icon="warning-sign">{t('report.compare.differentData')}</Callout>}
      <HTMLTable compact striped data-testid="report-compare-rewards">
        {head}
        <tbody>
          <tr>
            <td>{t('report.compare.rewardPerStep')}</td>
            <td>{num(c.rewards.a.decided, locale)}</td>
            <td>{num(c.rewards.b.decided, locale)}</td>
            <td>{num(c.rewards.a.logged, locale)}</td>
            <td>{pct(c.rewards.a.changeOverLogged, locale)}</td>
            <td>{pct(c.rewards.b.changeOverLogged, locale)}</td>
          </tr>
          <tr>
            <td>{t('report.compare.behaviourPerStep')}</td>
            <td>{num(c.rewards.a.behaviour, locale)}</td>
            <td>{num(c.rewards.b.behaviour, locale)}</td>
            <td>—</td>
            <td>—</td>
            <td>—</td>
          </tr>
        </tbody>
      </HTMLTable>
      {c.measuresMissing && (
        <Callout icon="info-sign" data-testid="report-measures-missing">
          {t('report.compare.measuresMissing', { type: t(`report.type.${terms}`) })}
        </Callout>
      )}
      {c.measures && (
        <>
          <h4 style={{ margin: 0 }}>{t(`report.measures.${c.measures.scenario}.title`)}</h4>
          <HTMLTable compact striped data-testid="report-measures">
            {head}
            <tbody>
              {c.measures.rows.map((r) => (
                <tr key={r.key} data-testid={`report-measure-${r.key}`}>
                  <td>{t(`report.measures.${c.measures!.scenario}.${r.key}` as Parameters<typeof t>[0])}</td>
                  <td>{num(r.a, locale)}</td>
                  <td>{num(r.b, locale)}</td>
                  <td>{num(r.logged, locale)}</td>
                  <td>{pct(r.changeA, locale)}</td>
                  <td>{pct(r.changeB, locale)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
      {c.realTotals.length > 0 && (
        <>
          <h4 style={{ margin: 0 }}>{t('report.compare.realTitle')}</h4>
          <HTMLTable compact striped data-testid="report-real-projected">
            <thead>
              <tr>
                <th>{t('report.compare.realTotal')}</th>
                <th>{t('report.compare.entered')}</th>
                <th>A: {nameA}</th>
                <th>B: {nameB}</th>
              </tr>
            </thead>
            <tbody>
              {c.realTotals.map((r) => (
                <tr key={r.total} data-testid={`report-real-${r.total}`}>
                  <td>
                    {t(`report.terms.${terms}.${r.total}`)}
                    <div className="bp6-text-muted">{t('report.compare.movesWith', { measure: t(`report.measures.${c.measures!.scenario}.${r.measure}` as Parameters<typeof t>[0]) })}</div>
                  </td>
                  <td style={{ fontVariantNumeric: 'tabular-nums' }}>{real[r.total]}</td>
                  <td style={{ fontVariantNumeric: 'tabular-nums' }}>{num(r.projectedA, locale)}</td>
                  <td style={{ fontVariantNumeric: 'tabular-nums' }}>{num(r.projectedB, locale)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <p className="bp6-text-muted" style={{ margin: 0 }}>
            {t('report.compare.projection')}
          </p>
        </>
      )}
      {c.fields.length > 0 && (
        <>
          <h4 style={{ margin: 0 }}>{t('report.compare.fieldsTitle')}</h4>
          <HTMLTable compact striped data-testid="report-fields">
            <thead>
              <tr>
                <th>{t('report.compare.field')}</th>
                <th>A: {nameA}</th>
                <th>B: {nameB}</th>
                <th>{t('report.compare.logged')}</th>
              </tr>
            </thead>
            <tbody>
              {c.fields.map((f) => (
                <tr key={`${f.node}.${f.field}`}>
                  <td>
                    {f.node} · {f.field}
                  </td>
                  <td>{num(f.a, locale)}</td>
                  <td>{num(f.b, locale)}</td>
                  <td>{num(f.logged, locale)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
    </>
  );
}

/** The online report: measured figures of both decisions, their difference, the real totals, a chart, and the comparison with the logged data. */
function ReportView({ id, onClose }: { id: string | null; onClose(): void }) {
  const { t, locale } = useReportsT();
  const [polling, setPolling] = useState(false);
  const view = reportsApi.endpoints['reports/view'].useQuery({ id: id ?? '' }, { skip: !id, pollingInterval: polling ? 1000 : 0 });
  const v = view.data;
  const pending = !!v && (v.report.status === 'created' || v.report.status === 'analysing');
  if (pending !== polling) setPolling(pending);
  let body;
  if (!v) body = view.isError ? <Callout intent="danger" title={t('report.loadFailed')} /> : <Spinner size={32} />;
  else {
    const terms = v.terms;
    const d = v.decisions;
    const rows: [string, number | null, number | null, number | null][] = d
      ? [
          [t('report.detail.totalReward'), d.a.totalReward, d.b.totalReward, v.difference!.totalReward],
          [t('report.detail.meanRewardPerStep'), d.a.meanRewardPerStep, d.b.meanRewardPerStep, v.difference!.meanRewardPerStep],
          [t('report.detail.behaviourReward'), d.a.behaviourReward, d.b.behaviourReward, v.difference!.behaviourReward],
          [t('report.detail.upliftOverBehaviour'), d.a.upliftOverBehaviour, d.b.upliftOverBehaviour, v.difference!.upliftOverBehaviour],
          [t('report.detail.horizon'), d.a.horizon, d.b.horizon, null],
          [t('report.detail.score'), d.a.score, d.b.score, null],
        ]
      : [];
    body = (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <ReportStatusTag status={v.report.status} />
          <Tag minimal>{t(`report.type.${v.report.type}`)}</Tag>
        </div>
        {pending && <Callout intent="primary" icon={<Spinner size={16} />} title={t('report.detail.analysing')} />}
        {v.report.status === 'failed' && <Callout intent="danger" title={t('report.detail.failed', { error: v.report.error ?? '' })} />}
        <h4 style={{ margin: 0 }}>{t('report.detail.real')}</h4>
        <HTMLTable compact>
          <tbody>
            {(['revenue', 'orders', 'cost'] as const).map((k) => (
              <tr key={k}>
                <td>{t(`report.terms.${terms}.${k}`)}</td>
                <td style={{ fontVariantNumeric: 'tabular-nums' }}>{v.real[k]}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        {d && (
          <>
            <h4 style={{ margin: 0 }}>{t('report.detail.measured')}</h4>
            <HTMLTable compact striped data-testid="report-figures">
              <thead>
                <tr>
                  <th>{t('report.detail.figure')}</th>
                  <th>A: {d.a.name}</th>
                  <th>B: {d.b.name}</th>
                  <th>{t('report.detail.difference')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(([label, a, b, diff]) => (
                  <tr key={label}>
                    <td>{label}</td>
                    <td>{num(a, locale)}</td>
                    <td>{num(b, locale)}</td>
                    <td>{num(diff, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            <div aria-label={t('report.detail.chart')}>
              <ReportChart a={d.a} b={d.b} nameA={`A: ${d.a.name}`} nameB={`B: ${d.b.name}`} labels={[t('report.detail.totalReward'), t('report.detail.meanRewardPerStep'), t('report.detail.behaviourReward')]} />
            </div>
            {v.comparison ? (
              <ReportComparisonView c={v.comparison} terms={terms} real={v.real} nameA={d.a.name} nameB={d.b.name} />
            ) : (
              <Callout icon="info-sign" data-testid="report-no-comparison">
                {t('report.compare.none')}
              </Callout>
            )}
          </>
        )}
        {v.report.remark && (
          <p>
            {t('report.detail.remark')}: {v.report.remark}
          </p>
        )}
      </div>
    );
  }
  return (
    <Dialog isOpen={id !== null} onClose={onClose} title={v ? t('report.detail.title', { name: v.report.name }) : t('reportPanel')} icon="timeline-bar-chart" style={{ width: 760 }}>
      <DialogBody>{body}</DialogBody>
      <DialogFooter actions={<Button text={t('report.detail.close')} onClick={onClose} />} />
    </Dialog>
  );
}

/**
 * Analysis reports of the current project (`/project/report?projectId=`): list, create (two
 * finished decision deductions and the real totals), rename, delete and the online report view.
 *
 * One list per project: another starts on its own first page and never shows the previous
 * one's reports while its own load.
 */
export function ReportPanel() {
  return <Reports key={useProjectLink().params.projectId ?? ''} />;
}

function Reports() {
  const { t, locale } = useReportsT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const link = useProjectLink();
  const projectId = link.params.projectId;
  const { solutionId, picker } = useSolutionChoice(projectId);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<AnalysisReport | null>(null);
  const [confirm, setConfirm] = useState<AnalysisReport | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  // A new view for each opening, the same while it closes (its animation runs).
  const viewingKey = useOpeningKey(viewing);
  const [polling, setPolling] = useState(false);
  const list = reportsApi.endpoints['reports/list'].useQuery({ projectId: projectId ?? '', page, pageSize: PAGE_SIZE }, { skip: !projectId, pollingInterval: polling ? 1000 : 0 });
  const [remove] = reportsApi.endpoints['reports/delete'].useMutation();
  const rows = list.data?.rows ?? [];
  const busy = rows.some((r) => r.status === 'created' || r.status === 'analysing');
  if (busy !== polling) setPolling(busy);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;
  const pages = pageCount(list.data?.total ?? 0, PAGE_SIZE);
  const createButton = <Button intent="primary" icon="add" text={t('report.create')} disabled={!solutionId} onClick={() => setCreating(true)} />;

  const body = (
    <ListBody
      query={list}
      failed={t('report.loadFailed')}
      retry={t('report.retry')}
      empty={rows.length === 0 && <NonIdealState icon="timeline-bar-chart" title={t('report.emptyTitle')} description={t('report.emptyDescription')} action={createButton} />}
    >
      <DataTable interactive testId="report-rows" columns={[t('report.name'), t('report.typeLabel'), t('report.statusLabel'), t('report.decisions'), t('report.created'), t('report.actions')]}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{r.name}</td>
            <td>{t(`report.type.${r.type}`)}</td>
            <td>
              <ReportStatusTag status={r.status} />
            </td>
            <td>
              {r.decisionAName ?? r.decisionAId} / {r.decisionBName ?? r.decisionBId}
            </td>
            <td>{new Date(r.createdAt).toLocaleString(locale)}</td>
            <td>
              <ButtonGroup variant="minimal">
                <Button icon="eye-open" text={t('report.view')} onClick={() => setViewing(r.id)} />
                <Button icon="edit" text={t('report.rename')} onClick={() => setRenaming(r)} />
                <Button icon="trash" intent="danger" text={t('report.delete')} onClick={() => setConfirm(r)} />
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </DataTable>
    </ListBody>
  );

  return (
    <PanelPage>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        {picker}
        {createButton}
      </div>
      {body}
      {pages > 1 && (
        <Pager withText page={page} pages={pages} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')}>
          {t('list.pageOf', { page, pages })}
        </Pager>
      )}
      {/* keyed: another solution's dialog, or another report's view, never holds the previous one's answers */}
      {solutionId && <CreateReportDialog key={solutionId} solutionId={solutionId} isOpen={creating} onClose={() => setCreating(false)} />}
      <RenameDialog report={renaming} onClose={() => setRenaming(null)} />
      <ReportView key={viewingKey} id={viewing} onClose={() => setViewing(null)} />
      <Alert
        isOpen={confirm !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('report.delete')}
        cancelButtonText={t('report.cancel')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const r = confirm!;
          setConfirm(null);
          void remove({ id: r.id })
            .unwrap()
            .then(
              () => notify({ message: t('report.deleted', { name: r.name }), intent: 'success' }),
              (err: unknown) => fail(err, t('report.actionFailed')),
            );
        }}
      >
        {confirm && t('report.confirmDelete', { name: confirm.name })}
      </Alert>
    </PanelPage>
  );
}
