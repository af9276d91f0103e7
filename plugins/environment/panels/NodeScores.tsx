/**
 * Per-node scores of an environment training (issue 17 item 4): what the training measured on
 * its held-out trajectories when it ended (`nodeScores` of `trainSimulator/get`), one row per
 * learned node with a bar of its step score, MAE and R², and the overall score. Nothing is
 * computed here: every figure is the server's.
 */
import { Callout, HTMLTable } from '@blueprintjs/core';
import { nodeScoreRows } from '@decisio/domain';
import type { TrainingRow } from '@decisio/sdk-plugin/trainings/api';
import { useEnvironmentT } from '../i18n';

const FINISHED = new Set(['successful', 'successful by manual stop']);
const fixed = (v: number | null, digits: number) => (v === null ? '–' : v.toFixed(digits));

/** The section of the environment detail; nothing while the training has not ended. */
export function NodeScores({ row }: { row: TrainingRow }) {
  const { t } = useEnvironmentT();
  if (!FINISHED.has(row.state)) return null;
  const scores = row.nodeScores;
  if (!scores) {
    return (
      <Callout icon="info-sign" data-testid="node-scores-none">
        {t('nodeScores.none')}
      </Callout>
    );
  }
  const rows = nodeScoreRows(scores);
  return (
    <section data-testid="node-scores" aria-label={t('nodeScores.title')}>
      <HTMLTable compact striped style={{ width: '100%' }}>
        <caption style={{ textAlign: 'start' }}>
          <strong>{t('nodeScores.title')}</strong> <small className="bp6-text-muted">{t('nodeScores.measuredOn', { windows: scores.windows, horizon: scores.horizon })}</small>
        </caption>
        <thead>
          <tr>
            <th>{t('nodeScores.node')}</th>
            <th style={{ width: '40%' }}>{t('nodeScores.score')}</th>
            <th>{t('nodeScores.mae')}</th>
            <th>{t('nodeScores.r2')}</th>
            <th>{t('nodeScores.count')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.node} data-testid={`node-score-${r.node}`}>
              <td>{r.node}</td>
              <td>
                <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
                  <div
                    role="meter"
                    aria-label={t('nodeScores.scoreOf', { node: r.node })}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={r.score ?? 0}
                    style={{ flex: 1, height: 8, background: 'var(--dc-bar-track, rgba(128,128,128,0.25))', borderRadius: 2 }}
                  >
                    <div style={{ width: `${Math.max(0, Math.min(100, r.score ?? 0))}%`, height: '100%', background: 'var(--bp-intent-primary-rest, #2d72d2)', borderRadius: 2 }} />
                  </div>
                  <span>{fixed(r.score, 2)}</span>
                </div>
              </td>
              <td>{r.mae === null ? '–' : r.mae.toPrecision(3)}</td>
              <td>{fixed(r.r2, 3)}</td>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="node-score-overall">
            <th>{t('nodeScores.overall')}</th>
            <th>{fixed(scores.score, 2)}</th>
            <th>{scores.mae === null ? '–' : scores.mae.toPrecision(3)}</th>
            <th colSpan={2} />
          </tr>
        </tfoot>
      </HTMLTable>
      <small className="bp6-text-muted">{t('nodeScores.help')}</small>
    </section>
  );
}
