/** The detail's "Terminal on the worker" (trainSSH/getTrainSSH): shown while the job runs, host key trust, refusal text, both languages. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';

const SOLUTION = 'a'.repeat(32);
const JOB = 'c'.repeat(32);
const FINGERPRINT = `SHA256:${'k'.repeat(43)}`;

function host(state: string, locale: 'zh-CN' | 'en-US' = 'en-US') {
  const row = { id: 'b'.repeat(32), code: 'E-BBBBBBBB', name: 'env one', state, progress: 0.5, durationMs: 1000, jobId: JOB, algorithm: 'bc', score: null, createdAt: '2026-11-23T10:00:00.000Z' };
  const h = createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/environment', search: { solutionId: SOLUTION } } });
  h.mockCall('trainSimulator/list', { data: { rows: [row], total: 1 } });
  h.mockCall('trainSimulator/get', { data: row });
  h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state, progress: 0.5, metrics: {}, points: [] } });
  h.mockCall('train/getTrainLog', { data: { jobId: JOB, state, error: null, items: [], nextAfterId: null } });
  h.mockCall('solution/getPattern', { data: { graph: null, files: [] } });
  return h;
}

async function openDetail(h: ReturnType<typeof host>) {
  await renderPanel(screenOf('environment'), { host: h });
  fireEvent.click(await screen.findByText('env one'));
  return screen.findByTestId('training-detail');
}

describe('terminal on the worker of a training', () => {
  afterEach(cleanup);

  it('is offered while the job runs, shows the worker key to trust, then the terminal', async () => {
    const h = host('debugging');
    h.mockCall('trainSSH/getTrainSSH', (body) =>
      (body as { probe?: boolean }).probe
        ? { data: { available: true } }
        : (body as { trustFingerprint?: string }).trustFingerprint === FINGERPRINT
        ? { data: { sessionId: 'd'.repeat(32), ticket: 'x.y', idleMinutes: 15, target: 'trainer@gpu1:22', workerId: 'gpu1-1-abc', hostKey: { type: 'ssh-ed25519', fingerprint: FINGERPRINT, trust: 'new' } } }
        : { code: 10026, message: 'unknown', errors: { host: 'gpu1', port: '22', keyType: 'ssh-ed25519', fingerprint: FINGERPRINT } },
    );
    await openDetail(h);
    fireEvent.click(await screen.findByTestId('worker-terminal-open'));
    const notice = await screen.findByTestId('ssh-host-key-unknown');
    expect(notice.textContent).toContain('First connection to this worker');
    expect(notice.textContent).toContain(FINGERPRINT);
    fireEvent.click(screen.getByTestId('ssh-trust'));
    await screen.findByTestId('ssh-terminal');
    expect(screen.getByText('Worker gpu1-1-abc: trainer@gpu1:22')).toBeTruthy();
    const sent = h.calls.filter((c) => c.url === 'trainSSH/getTrainSSH').map((c) => c.body);
    expect(sent).toEqual([
      { jobId: JOB, probe: true },
      { jobId: JOB, cols: 100, rows: 24 },
      { jobId: JOB, cols: 100, rows: 24, trustFingerprint: FINGERPRINT },
    ]);
  });

  it('explains a refusal in Chinese (the job ended between the probe and the click)', async () => {
    const h = host('processing', 'zh-CN');
    h.mockCall('trainSSH/getTrainSSH', (body) => ((body as { probe?: boolean }).probe ? { data: { available: true } } : { code: 10022, message: '获取 SSH 信息失败' }));
    await openDetail(h);
    fireEvent.click(await screen.findByTestId('worker-terminal-open'));
    const error = await screen.findByTestId('worker-terminal-error');
    expect(error.textContent).toContain('获取 SSH 信息失败');
    expect(error.textContent).toContain('TRAIN_SSH');
    expect(screen.getByTestId('worker-terminal-open').textContent).toBe('工作机终端');
  });

  it('is not offered when the server says no terminal would open (operator setting off, not the caller\'s job)', async () => {
    const h = host('processing');
    h.mockCall('trainSSH/getTrainSSH', { data: { available: false } });
    await openDetail(h);
    await waitFor(() => expect(h.calls.some((c) => c.url === 'trainSSH/getTrainSSH')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('training-score')).toBeTruthy());
    expect(screen.queryByTestId('worker-terminal-open')).toBeNull();
  });

  it('is not offered once the job has ended', async () => {
    const h = host('successful');
    await openDetail(h);
    await waitFor(() => expect(screen.getByTestId('training-score')).toBeTruthy());
    expect(screen.queryByTestId('worker-terminal-open')).toBeNull();
    expect(h.calls.some((c) => c.url === 'trainSSH/getTrainSSH')).toBe(false);
  });
});
