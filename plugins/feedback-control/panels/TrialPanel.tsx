/**
 * `/gfs/online-trial`: drop a control log, check it, learn encoder + response model + PID
 * controller in the browser with live curves, compare with the logged actions, download or save.
 */
import { useState } from 'react';
import { Button, Callout, FormGroup, InputGroup, NonIdealState, ProgressBar } from '@blueprintjs/core';
import { NumericInput, BusyButton, useNotify, useSession, type PanelProps } from '@decisio/sdk-plugin';
import { gfsApi } from '../api';
import { useGfsT } from '../i18n';
import { createBody, downloadJson, downloadName, resultOf } from '../model/result';
import { LineChart } from './LineChart';
import { BackendBar, CheckResult, FileDrop, QualityCodes } from './parts';
import { ResultView } from './ResultView';
import { useTrial } from './use-trial';
import './gfs.css';

export function TrialPanel(_props: PanelProps) {
  const { t } = useGfsT();
  const notify = useNotify();
  const session = useSession();
  const { model, state } = useTrial();
  const [modelSteps, setModelSteps] = useState(400);
  const [controllerSteps, setControllerSteps] = useState(150);
  const [name, setName] = useState('');
  const [create, creating] = gfsApi.endpoints['feedback-control/create'].useMutation();
  const [record] = gfsApi.endpoints['feedback-control/download'].useMutation();
  const busy = state.phase === 'training' || state.phase === 'checking' || state.phase === 'starting';
  const run = state.run;
  const p = state.progress;

  const download = () => {
    if (!run) return;
    const fileName = downloadName(state.fileName ?? 'trial');
    downloadJson(fileName, { file: state.fileName, check: state.check, result: resultOf(run) });
    notify({ intent: 'success', message: t('save.downloaded', { name: fileName }) });
    if (session.token) void record({ fileName: (state.fileName ?? fileName).slice(0, 50), kind: 'result', improvement: run.result.metrics.improvement });
  };
  const save = async () => {
    if (!run || !state.check) return;
    const r = await create(createBody(name, state.fileName ?? 'trial', state.check, run));
    notify('error' in r ? { intent: 'danger', message: t('save.failed') } : { intent: 'success', message: t('save.done') });
  };

  return (
    <div className="gfs-page" data-testid="gfs-trial">
      <p>{t('intro')}</p>
      <BackendBar state={state} busy={busy} onChange={(pref) => void model?.start(pref)} />
      <FileDrop disabled={busy} onFile={(f) => void model?.checkFile(f)} />
      <CheckResult state={state} />
      <QualityCodes />
      {!state.check && state.phase !== 'checking' ? <NonIdealState icon="document" title={t('state.empty')} description={t('state.emptyHint')} /> : null}
      {state.check?.code === 0 ? (
        <div className="gfs-row">
          <FormGroup label={t('settings.modelSteps')} inline>
            <NumericInput value={modelSteps} min={20} max={5000} stepSize={50} minorStepSize={10} majorStepSize={500} onValueChange={(v) => setModelSteps(Math.max(20, Math.min(5000, v || 20)))} disabled={busy} data-testid="gfs-model-steps" />
          </FormGroup>
          <FormGroup label={t('settings.controllerSteps')} inline>
            <NumericInput value={controllerSteps} min={10} max={2000} stepSize={25} minorStepSize={5} majorStepSize={250} onValueChange={(v) => setControllerSteps(Math.max(10, Math.min(2000, v || 10)))} disabled={busy} data-testid="gfs-controller-steps" />
          </FormGroup>
          <Button intent="primary" icon="play" disabled={busy || !state.choice} onClick={() => void model?.train({ modelSteps, controllerSteps })} data-testid="gfs-train">
            {t('actions.train')}
          </Button>
          {state.phase === 'training' ? (
            <Button icon="stop" onClick={() => model?.cancel()} data-testid="gfs-cancel">
              {t('actions.cancel')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {state.phase === 'training' && p ? (
        <div data-testid="gfs-progress">
          {t('state.training', { phase: t(`state.phase.${p.phase}`), step: p.step, total: p.total, rate: p.stepsPerSecond.toFixed(1) })}
          <ProgressBar value={p.step / Math.max(1, p.total)} animate={false} stripes={false} />
        </div>
      ) : null}
      {state.phase === 'cancelled' ? <Callout data-testid="gfs-cancelled">{t('state.cancelled')}</Callout> : null}
      {state.phase === 'failed' ? <Callout intent="danger">{t('state.failed', { error: state.error ?? '' })}</Callout> : null}
      {state.modelLoss.length > 0 || run ? (
        <div className="gfs-charts">
          <LineChart title={t('charts.modelLoss')} testId="gfs-chart-model" log series={[{ label: t('charts.modelLoss'), values: state.modelLoss }]} />
          <LineChart title={t('charts.controllerCost')} testId="gfs-chart-controller" series={[{ label: t('charts.controllerCost'), values: state.controllerCost }]} />
        </div>
      ) : null}
      {run ? (
        <>
          <ResultView result={run.result} />
          <div className="gfs-row">
            <Button icon="download" onClick={download} data-testid="gfs-download">
              {t('actions.download')}
            </Button>
            {session.token ? (
              <>
                <InputGroup placeholder={t('actions.saveName')} aria-label={t('actions.saveName')} value={name} maxLength={50} onChange={(e) => setName(e.currentTarget.value)} data-testid="gfs-save-name" />
                <BusyButton icon="floppy-disk" intent="success" disabled={!name.trim() || creating.isLoading} loading={creating.isLoading} onClick={() => void save()} data-testid="gfs-save">
                  {t('actions.save')}
                </BusyButton>
              </>
            ) : null}
          </div>
        </>
      ) : null}
    </div>
  );
}
