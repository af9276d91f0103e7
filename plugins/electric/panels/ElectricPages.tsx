import { useMemo, useState, type ReactNode } from 'react';
import { Button, Callout, Card, Classes, FormGroup, H2, H4, HTMLTable, InputGroup, NonIdealState, Switch, TextArea } from '@blueprintjs/core';
import type { ElectricResult, ElectricSite } from '@decisio/domain';
import { ELECTRIC_TEMPERATURE_MAX, ELECTRIC_TEMPERATURE_MIN, ErrorCode } from '@decisio/domain';
import { useUPlot } from '@decisio/sdk-plugin/charts';
import { NumericInput, BusyButton, isApiError, useAppLocation, useNavigate, useSession } from '@decisio/sdk-plugin';
import { electricApi } from '../api';
import { useElectricT } from '../i18n';

const SITES: ElectricSite[] = ['330', '600'];
const fixed = (v: number, d = 2) => v.toFixed(d);
/** Where a signed-in user goes back into the workbench: the electric template in the template centre. */
export const ELECTRIC_TEMPLATE_PATH = '/template-center/industry/electric';

/**
 * Page frame of the public pages: title, links between them, content. The pages are bare (no
 * header, no side menu), so a signed-in user gets a link back to the electric template.
 */
function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useElectricT();
  const navigate = useNavigate();
  const signedIn = Boolean(useSession().token);
  return (
    <main style={{ maxWidth: 1100, margin: '0 auto', padding: 16 }} data-testid="electric-page">
      <nav style={{ display: 'flex', gap: 8, marginBottom: 8 }}>
        <Button minimal icon="flash" onClick={() => navigate('/electric')}>
          {t('title')}
        </Button>
        {SITES.map((s) => (
          <Button key={s} minimal onClick={() => navigate(`/electric/${s}`)}>
            {t(`room${s}` as 'room330')}
          </Button>
        ))}
        <Button minimal icon="envelope" onClick={() => navigate('/electric/connect')}>
          {t('connect')}
        </Button>
        {signedIn && (
          <Button minimal icon="arrow-left" style={{ marginLeft: 'auto' }} onClick={() => navigate(ELECTRIC_TEMPLATE_PATH)} data-testid="electric-back">
            {t('back')}
          </Button>
        )}
      </nav>
      <H2>{title}</H2>
      {children}
    </main>
  );
}

/** A line chart of one or two series over steps. */
function Lines({ xs, series, testId }: { xs: number[]; series: { label: string; values: number[]; colour: string }[]; testId: string }) {
  // Redraw only when what is drawn changes (the parents rebuild the arrays on every render).
  const key = useMemo(() => JSON.stringify([xs, series]), [xs, series]);
  const box = useUPlot(
    (_UPlot, axis) => ({
      options: { height: 220, scales: { x: { time: false } }, axes: [axis, axis], series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2 }))] },
      data: [xs, ...series.map((s) => s.values)],
    }),
    [key],
  );
  return <div ref={box} data-testid={testId} />;
}

/** What answers the decisions, said plainly. */
function WhatAnswers({ mae, rows }: { mae?: number; rows?: number }) {
  const { t } = useElectricT();
  return (
    <Callout intent="primary" icon="info-sign" data-testid="electric-model" style={{ margin: '12px 0' }}>
      {t('model.text')}
      {mae !== undefined && rows !== undefined && <div>{t('model.fit', { rows, mae: fixed(mae, 3) })}</div>}
    </Callout>
  );
}

export function ElectricHomePage() {
  const { t } = useElectricT();
  const navigate = useNavigate();
  return (
    <Frame title={t('title')}>
      <p>{t('home.intro')}</p>
      <WhatAnswers />
      <div style={{ display: 'flex', gap: 16 }}>
        {SITES.map((s) => (
          <Card key={s} interactive onClick={() => navigate(`/electric/${s}`)} style={{ flex: 1 }} data-testid={`electric-open-${s}`}>
            <H4>{t(`room${s}` as 'room330')}</H4>
            <p className={Classes.TEXT_MUTED}>{t('home.room', { room: s === '330' ? 3 : 6 })}</p>
            <Button intent="primary" onClick={() => navigate(`/electric/${s}`)}>
              {t('home.try')}
            </Button>
          </Card>
        ))}
      </div>
    </Frame>
  );
}

function ElectricRoomPage({ site }: { site: ElectricSite }) {
  const { t } = useElectricT();
  const navigate = useNavigate();
  const temps = electricApi.endpoints['electric/temperatures'].useQuery({ site });
  const pumps = electricApi.endpoints['electric/pumps'].useQuery({ site });
  const [decide, decided] = electricApi.endpoints['electric/decide'].useMutation();
  const [temperature, setTemperature] = useState(8);
  const [doorOpen, setDoorOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const valid = Number.isFinite(temperature) && temperature >= ELECTRIC_TEMPERATURE_MIN && temperature <= ELECTRIC_TEMPERATURE_MAX;

  const submit = async () => {
    setFailure(null);
    try {
      const d = await decide({ site, temperature, doorOpen }).unwrap();
      navigate(`/electric/${site}/result`, { search: { decisionId: d.decisionId } });
    } catch (err) {
      setFailure(isApiError(err) ? err.message : t('error'));
    }
  };

  let series;
  if (temps.isError || pumps.isError) {
    series = (
      <div data-testid="electric-error">
      <NonIdealState
        icon="error"
        title={t('error')}
        description={(() => {
          const e = temps.error ?? pumps.error;
          return isApiError(e) ? e.message : undefined;
        })()}
        action={<Button icon="refresh" onClick={() => (void temps.refetch(), void pumps.refetch())}>{t('retry')}</Button>}
      />
      </div>
    );
  } else if (!temps.data || !pumps.data) {
    series = <div className={Classes.SKELETON} style={{ height: 220 }} aria-busy="true" aria-label={t('loading')} />;
  } else {
    const xs = temps.data.rows.map((r) => r.step);
    series = (
      <>
        <p className={Classes.TEXT_MUTED}>{t('room.logged', { room: temps.data.room, steps: temps.data.rows.length })}</p>
        <Lines xs={xs} series={[{ label: t('room.temperature'), values: temps.data.rows.map((r) => r.temperature), colour: '#2d72d2' }]} testId="electric-temperature-chart" />
        <Lines xs={pumps.data.rows.map((r) => r.step)} series={[{ label: t('room.power'), values: pumps.data.rows.map((r) => r.power), colour: '#d1980b' }]} testId="electric-power-chart" />
        <p data-testid="electric-summary">
          {t('room.summary', {
            max: fixed(Math.max(...temps.data.rows.map((r) => r.temperature))),
            opens: temps.data.rows.filter((r) => r.doorOpen).length,
            power: fixed(pumps.data.rows.reduce((s, r) => s + r.power, 0) / Math.max(1, pumps.data.rows.length)),
          })}
        </p>
      </>
    );
  }
  return (
    <Frame title={t(`room${site}` as 'room330')}>
      {series}
      <Card style={{ marginTop: 12 }}>
        <H4>{t('decide.title')}</H4>
        <WhatAnswers />
        <FormGroup label={t('decide.temperature')} labelFor="electric-temperature" helperText={valid ? undefined : t('decide.range', { min: ELECTRIC_TEMPERATURE_MIN, max: ELECTRIC_TEMPERATURE_MAX })} intent={valid ? 'none' : 'danger'}>
          <NumericInput id="electric-temperature" value={temperature} onValueChange={(v) => setTemperature(v)} stepSize={0.5} minorStepSize={0.1} data-testid="electric-temperature" />
        </FormGroup>
        <Switch label={t('decide.door')} checked={doorOpen} onChange={(e) => setDoorOpen(e.currentTarget.checked)} data-testid="electric-door" />
        {failure && (
          <Callout intent="danger" style={{ marginBottom: 8 }} data-testid="electric-decide-failed">
            {failure}
          </Callout>
        )}
        <BusyButton intent="primary" icon="predictive-analysis" disabled={!valid} loading={decided.isLoading} onClick={() => void submit()} data-testid="electric-decide">
          {t('decide.submit')}
        </BusyButton>
      </Card>
    </Frame>
  );
}

function ScoreRow({ label, s }: { label: string; s: ElectricResult['comparison']['model'] }) {
  return (
    <tr>
      <td>{label}</td>
      <td>{fixed(s.meanReturn, 1)}</td>
      <td>{fixed(s.meanDeviation)}</td>
      <td>{fixed(s.meanPower)}</td>
    </tr>
  );
}

/**
 * Whether the result call failed for good: the id names no decision (`notFound`) or is no
 * decision id at all (`paramInvalid`), from the error catalogue. Fetching again cannot help
 * there; anything else (network, timeout, server error, rate limit) may pass, so it keeps Retry.
 */
export function isUnknownDecision(error: unknown): boolean {
  return isApiError(error) && error.kind === 'api' && (error.code === ErrorCode.notFound || error.code === ErrorCode.paramInvalid);
}

function ElectricResultPage({ site }: { site: ElectricSite }) {
  const { t } = useElectricT();
  const navigate = useNavigate();
  const decisionId = useAppLocation().search['decisionId'];
  const result = electricApi.endpoints['electric/result'].useQuery({ decisionId: decisionId ?? '' }, { skip: !decisionId });
  let body;
  if (!decisionId) {
    body = (
      <div data-testid="electric-result-empty">
        <NonIdealState icon="predictive-analysis" title={t('result.none')} action={<Button intent="primary" onClick={() => navigate(`/electric/${site}`)}>{t('result.decide')}</Button>} />
      </div>
    );
  } else if (result.isError && isUnknownDecision(result.error)) {
    body = (
      <div data-testid="electric-result-not-found">
        <NonIdealState icon="search" title={t('result.notFound')} description={t('result.notFoundHint')} action={<Button intent="primary" onClick={() => navigate(`/electric/${site}`)}>{t('result.decide')}</Button>} />
      </div>
    );
  } else if (result.isError) {
    body = (
      <div data-testid="electric-error">
        <NonIdealState icon="error" title={t('error')} description={isApiError(result.error) ? result.error.message : undefined} action={<Button icon="refresh" onClick={() => void result.refetch()}>{t('retry')}</Button>} />
      </div>
    );
  } else if (!result.currentData) {
    // this decision's answer only: another one never shows the previous decision while it loads
    body = <div className={Classes.SKELETON} style={{ height: 220 }} aria-busy="true" aria-label={t('loading')} />;
  } else {
    const r = result.currentData;
    body = (
      <>
        <Callout intent="success" icon="flash" data-testid="electric-decision">
          {t('result.decision', { temperature: fixed(r.temperature, 1), door: r.doorOpen ? t('result.doorOpen') : t('result.doorShut'), power: fixed(r.power), next: fixed(r.predictedNext) })}
        </Callout>
        <WhatAnswers mae={r.model.heldOutMae} rows={r.model.trainingRows} />
        <H4>{t('result.forecast')}</H4>
        <Lines
          xs={r.forecast.map((f) => f.step)}
          series={[
            { label: t('room.temperature'), values: r.forecast.map((f) => f.temperature), colour: '#2d72d2' },
            { label: t('room.power'), values: r.forecast.map((f) => f.power), colour: '#d1980b' },
          ]}
          testId="electric-forecast-chart"
        />
        <H4>{t('result.comparison', { episodes: r.comparison.episodes, steps: r.comparison.steps })}</H4>
        <HTMLTable compact striped data-testid="electric-comparison">
          <thead>
            <tr>
              <th>{t('result.controller')}</th>
              <th>{t('result.return')}</th>
              <th>{t('result.deviation')}</th>
              <th>{t('result.meanPower')}</th>
            </tr>
          </thead>
          <tbody>
            <ScoreRow label={t('result.model')} s={r.comparison.model} />
            <ScoreRow label={t('result.logged')} s={r.comparison.logged} />
          </tbody>
        </HTMLTable>
      </>
    );
  }
  return <Frame title={t(`result${site}` as 'result330')}>{body}</Frame>;
}

export function ElectricConnectPage() {
  const { t } = useElectricT();
  const [send, sent] = electricApi.endpoints['electric/contact'].useMutation();
  const [form, setForm] = useState({ name: '', company: '', email: '', mobile: '', content: '' });
  const [failure, setFailure] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  const submit = async () => {
    setFailure(null);
    try {
      await send(form).unwrap();
    } catch (err) {
      setFailure(isApiError(err) ? err.message : t('error'));
    }
  };
  return (
    <Frame title={t('connect')}>
      {sent.isSuccess ? (
        <Callout intent="success" data-testid="electric-contact-sent">
          {t('contact.sent')}
        </Callout>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <p>{t('contact.intro')}</p>
          <FormGroup label={t('contact.name')} labelFor="ec-name">
            <InputGroup id="ec-name" value={form.name} onChange={set('name')} />
          </FormGroup>
          <FormGroup label={t('contact.company')} labelFor="ec-company">
            <InputGroup id="ec-company" value={form.company} onChange={set('company')} />
          </FormGroup>
          <FormGroup label={t('contact.email')} labelFor="ec-email">
            <InputGroup id="ec-email" value={form.email} onChange={set('email')} />
          </FormGroup>
          <FormGroup label={t('contact.mobile')} labelFor="ec-mobile">
            <InputGroup id="ec-mobile" value={form.mobile} onChange={set('mobile')} />
          </FormGroup>
          <FormGroup label={t('contact.content')} labelFor="ec-content">
            <TextArea id="ec-content" fill value={form.content} onChange={set('content')} />
          </FormGroup>
          {failure && (
            <Callout intent="danger" style={{ marginBottom: 8 }} data-testid="electric-contact-failed">
              {failure}
            </Callout>
          )}
          <BusyButton type="submit" intent="primary" loading={sent.isLoading} disabled={!form.name.trim() || !form.content.trim()} data-testid="electric-contact-send">
            {t('contact.send')}
          </BusyButton>
        </form>
      )}
    </Frame>
  );
}

export const ElectricRoom330Page = () => <ElectricRoomPage site="330" />;
export const ElectricRoom600Page = () => <ElectricRoomPage site="600" />;
export const ElectricResult330Page = () => <ElectricResultPage site="330" />;
export const ElectricResult600Page = () => <ElectricResultPage site="600" />;
