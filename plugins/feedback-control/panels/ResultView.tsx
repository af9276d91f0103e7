/** Figures, comparison chart and gains of a trial result (live or saved). */
import { Callout, HTMLTable } from '@blueprintjs/core';
import type { PidResult } from '@decisio/domain';
import { useGfsT } from '../i18n';
import { LineChart } from './LineChart';

const f4 = (v: number) => (Math.abs(v) < 1e-3 && v !== 0 ? v.toExponential(3) : v.toFixed(4));

export function ResultView(props: { result: Omit<PidResult, 'weights'> }) {
  const { t } = useGfsT();
  const { metrics: m, comparison: c, gains: g } = props.result;
  const beats = m.controllerCost < m.loggedCost;
  return (
    <section data-testid="gfs-result" data-beats={beats ? 'yes' : 'no'}>
      <h4>{t('result.title')}</h4>
      <Callout intent={beats ? 'success' : 'warning'}>{beats ? t('result.beats') : t('result.loses')}</Callout>
      <HTMLTable compact className="gfs-metrics">
        <tbody>
          <tr>
            <td>{t('result.controllerCost')}</td>
            <td data-testid="gfs-controller-cost" data-value={m.controllerCost}>{f4(m.controllerCost)}</td>
          </tr>
          <tr>
            <td>{t('result.loggedCost')}</td>
            <td data-testid="gfs-logged-cost" data-value={m.loggedCost}>{f4(m.loggedCost)}</td>
          </tr>
          <tr>
            <td>{t('result.loggedCostReal')}</td>
            <td data-testid="gfs-logged-cost-real" data-value={m.loggedCostReal}>{f4(m.loggedCostReal)}</td>
          </tr>
          <tr>
            <td>{t('result.improvement')}</td>
            <td data-testid="gfs-improvement">{(m.improvement * 100).toFixed(1)} %</td>
          </tr>
          <tr>
            <td>{t('result.modelMse')}</td>
            <td data-testid="gfs-model-mse">{f4(m.modelMse)}</td>
          </tr>
          <tr>
            <td>{t('result.speed')}</td>
            <td data-testid="gfs-speed" data-value={m.stepsPerSecond}>
              {t('result.speedValue', { rate: m.stepsPerSecond.toFixed(1), seconds: m.seconds.toFixed(1), backend: `${props.result.backend} ${props.result.backendPath}` })}
            </td>
          </tr>
        </tbody>
      </HTMLTable>
      <LineChart
        title={t('charts.comparison')}
        testId="gfs-chart-comparison"
        series={[
          { label: t('charts.series.target'), values: c.target, dashed: true },
          { label: t('charts.series.real'), values: c.real },
          { label: t('charts.series.logged'), values: c.logged },
          { label: t('charts.series.controller'), values: c.controller },
        ]}
      />
      <details>
        <summary>{t('result.gains')}</summary>
        <code data-testid="gfs-gains">
          Kp [{g.kp.map((v) => v.toFixed(3)).join(', ')}] · Ki [{g.ki.map((v) => v.toFixed(3)).join(', ')}] · Kd [{g.kd.map((v) => v.toFixed(3)).join(', ')}] · bias [{g.bias.map((v) => v.toFixed(3)).join(', ')}]
        </code>
      </details>
    </section>
  );
}
