import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { environmentPlugin } from '../index';

const SOLUTION = 'a'.repeat(32);
const panel = environmentPlugin.panels.find((p) => p.id === 'environment.list')!;
const host = (locale: 'zh-CN' | 'en-US') =>
  createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/simulator', search: { solutionId: SOLUTION } } });
const nodeScores = {
  nodes: {
    next_temperature: { mae: 0.0123, mse: 0.0004, r2: 0.9312, score: 33.04, count: 1280 },
    action: { mae: 0.215, mse: 0.08, r2: 0.412, score: 14.24, count: 640 },
  },
  mae: 0.11365,
  score: 18.97,
  horizon: 10,
  windows: 64,
};
const row = (over: Record<string, unknown> = {}) => ({ id: 'b'.repeat(32), code: 'E-B', name: 'cold room', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), algorithm: 'bc', score: 18.97, nodeScores, createdAt: '2026-11-23T10:00:00.000Z', ...over });
const mockDetail = (h: ReturnType<typeof host>, r: ReturnType<typeof row>) => {
  h.mockCall('trainSimulator/list', { data: { rows: [r], total: 1 } });
  h.mockCall('trainSimulator/get', { data: r });
  h.mockCall('train/getTrainDisplayDataList', { data: { jobId: r.jobId, state: r.state, progress: 1, metrics: {}, points: [] } });
  h.mockCall('train/getTrainLog', { data: { jobId: r.jobId, state: r.state, error: null, items: [], nextAfterId: null } });
  h.mockCall('train/getPicBySimulatorNum', { code: 1404, message: 'not found' });
  h.mockCall('solution/getPattern', { data: { graph: null, files: [] } });
};

describe('environment detail: scores per node', () => {
  afterEach(() => cleanup());

  it('shows each node with a bar of its score, MAE and R², worst first, and the overall score, in both languages', async () => {
    for (const [locale, title, overall] of [
      ['en-US', 'Scores per node', 'Overall'],
      ['zh-CN', '各节点得分', '总体'],
    ] as const) {
      const h = host(locale);
      mockDetail(h, row());
      await renderPanel(panel, { host: h });
      fireEvent.click(await screen.findByText('cold room'));
      const section = await screen.findByTestId('node-scores');
      expect(within(section).getByText(title)).toBeTruthy();
      const rows = within(section).getAllByTestId(/^node-score-(?!overall)/);
      expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['node-score-action', 'node-score-next_temperature']);
      const temp = within(section).getByTestId('node-score-next_temperature');
      expect(temp.textContent).toContain('33.04');
      expect(temp.textContent).toContain('0.0123');
      expect(temp.textContent).toContain('0.931');
      expect(temp.textContent).toContain('1280');
      expect(within(temp).getByRole('meter').getAttribute('aria-valuenow')).toBe('33.04');
      const total = within(section).getByTestId('node-score-overall');
      expect(total.textContent).toContain(overall);
      expect(total.textContent).toContain('18.97');
      expect(section.textContent).toContain('64');
      cleanup();
    }
  });

  it('says when a finished training has no per-node scores, and shows nothing while one runs', async () => {
    const h = host('en-US');
    mockDetail(h, row({ nodeScores: null }));
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByText('cold room'));
    expect((await screen.findByTestId('node-scores-none')).textContent).toContain('ended before they were kept');
    cleanup();
    const h2 = host('en-US');
    mockDetail(h2, row({ state: 'processing', nodeScores: null, progress: 0.5 }));
    await renderPanel(panel, { host: h2 });
    fireEvent.click(await screen.findByText('cold room'));
    expect(await screen.findByTestId('training-detail')).toBeTruthy();
    expect(screen.queryByTestId('node-scores')).toBeNull();
    expect(screen.queryByTestId('node-scores-none')).toBeNull();
  });
});
