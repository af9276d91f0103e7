/**
 * `/gfs/encoder` (and the public `/gfs-encoder`): learns the encoder of the observation history
 * and the response model only, and shows the held-out one-step prediction. Nothing is uploaded.
 */
import { useState } from 'react';
import { Button, Callout, FormGroup, HTMLTable, NonIdealState, ProgressBar } from '@blueprintjs/core';
import { NumericInput, type PanelProps } from '@decisio/sdk-plugin';
import { useGfsT } from '../i18n';
import { LineChart } from './LineChart';
import { BackendBar, CheckResult, FileDrop, QualityCodes } from './parts';
import { useTrial } from './use-trial';
import './gfs.css';

export function EncoderPanel(_props: PanelProps) {
  const { t } = useGfsT();
  const { model, state } = useTrial();
  const [modelSteps, setModelSteps] = useState(400);
  const busy = state.phase === 'training' || state.phase === 'checking' || state.phase === 'starting';
  const run = state.run;
  const p = state.progress;
  return (
    <div className="gfs-page" data-testid="gfs-encoder">
      <p>{t('encoderIntro')}</p>
      <BackendBar state={state} busy={busy} onChange={(pref) => void model?.start(pref)} />
      <FileDrop disabled={busy} onFile={(f) => void model?.checkFile(f)} />
      <CheckResult state={state} />
      <QualityCodes />
      {!state.check && state.phase !== 'checking' ? <NonIdealState icon="document" title={t('state.empty')} description={t('state.emptyHint')} /> : null}
      {state.check?.code === 0 ? (
        <div className="gfs-row">
          <FormGroup label={t('settings.modelSteps')} inline>
            <NumericInput value={modelSteps} min={20} max={5000} stepSize={50} minorStepSize={10} majorStepSize={500} onValueChange={(v) => setModelSteps(Math.max(20, Math.min(5000, v || 20)))} disabled={busy} />
          </FormGroup>
          <Button intent="primary" icon="play" disabled={busy || !state.choice} onClick={() => void model?.train({ modelSteps, mode: 'encoder' })} data-testid="gfs-train">
            {t('actions.trainEncoder')}
          </Button>
          {state.phase === 'training' ? <Button icon="stop" onClick={() => model?.cancel()}>{t('actions.cancel')}</Button> : null}
        </div>
      ) : null}
      {state.phase === 'training' && p ? (
        <div data-testid="gfs-progress">
          {t('state.training', { phase: t(`state.phase.${p.phase}`), step: p.step, total: p.total, rate: p.stepsPerSecond.toFixed(1) })}
          <ProgressBar value={p.step / Math.max(1, p.total)} animate={false} stripes={false} />
        </div>
      ) : null}
      {state.phase === 'cancelled' ? <Callout>{t('state.cancelled')}</Callout> : null}
      {state.phase === 'failed' ? <Callout intent="danger">{t('state.failed', { error: state.error ?? '' })}</Callout> : null}
      {state.modelLoss.length > 0 ? <LineChart title={t('charts.modelLoss')} testId="gfs-chart-model" log series={[{ label: t('charts.modelLoss'), values: state.modelLoss }]} /> : null}
      {run ? (
        <section data-testid="gfs-result">
          <HTMLTable compact className="gfs-metrics">
            <tbody>
              <tr>
                <td>{t('result.modelMse')}</td>
                <td data-testid="gfs-model-mse">{run.result.metrics.modelMse.toFixed(4)}</td>
              </tr>
              <tr>
                <td>{t('result.speed')}</td>
                <td>{t('result.speedValue', { rate: run.result.metrics.stepsPerSecond.toFixed(1), seconds: run.result.metrics.seconds.toFixed(1), backend: `${run.result.backend} ${run.result.backendPath}` })}</td>
              </tr>
            </tbody>
          </HTMLTable>
          <LineChart
            title={t('charts.onestep')}
            testId="gfs-chart-onestep"
            series={[
              { label: t('charts.series.real'), values: run.onestep.real },
              { label: t('charts.series.predicted'), values: run.onestep.predicted },
            ]}
          />
        </section>
      ) : null}
    </div>
  );
}

/** The public page `/gfs-encoder` (no sign-in, no console). */
export function PublicEncoderPage() {
  const { t } = useGfsT();
  return (
    <main style={{ maxWidth: 1100, margin: '0 auto', height: '100vh' }}>
      <h2 style={{ margin: '12px 12px 0' }}>{t('publicEncoderTitle')}</h2>
      <EncoderPanel panelId="feedback-control.public-encoder" />
    </main>
  );
}
