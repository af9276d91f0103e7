/**
 * A project with a default algorithm image version trains only on machines of that engine
 * version: the training form's machine list marks the others disabled with the reason, and the
 * deduction form offers only the machines of the version; without a version every online machine
 * is offered as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';

const SOLUTION = 'a'.repeat(32);
const PROJECT = 'p'.repeat(32);
const empty = { data: { rows: [], total: 0 } };
const worker = (n: number, engineVersion: string, status = 'online') => ({ id: `w${n}`, name: `#${n}`, host: null, cores: null, memory: null, gpuAdapter: null, engineVersion, concurrency: null, runningJobs: 0, status, heartbeatAt: '2026-11-01T10:00:00.000Z' });
const WORKERS = { data: { scope: 'tenant', rows: [worker(1, '1.0.0'), worker(2, '2.0.0'), worker(3, '2.0.0', 'dead')] } };
const project = (imageVersion: string | null) => ({ data: { projectId: PROJECT, name: 'p', imageVersion } });

const host = (locale: 'zh-CN' | 'en-US', imageVersion: string | null, calls: Record<string, unknown> = {}) => {
  const h = createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/objective', search: { projectId: PROJECT, solutionId: SOLUTION } } });
  const replies = { 'virtualMachine/getVirtualMachineList': WORKERS, 'project/getProject': project(imageVersion), 'hyperparameter/list': empty, 'objective/list': empty, 'trainSimulator/list': empty, ...calls };
  for (const [url, reply] of Object.entries(replies)) h.mockCall(url, reply as never);
  return h;
};
const options = (testId: string) => within(screen.getByTestId(testId)).getAllByRole('option').map((o) => [o.textContent, (o as HTMLOptionElement).disabled]);

describe('machines of the project\'s default algorithm image version', () => {
  afterEach(() => cleanup());

  it('training form: the machines of another version are disabled with the reason (both languages)', async () => {
    const h = host('en-US', '2.0.0', { 'trainPolicy/list': empty });
    await renderPanel(screenOf('policy', true), { host: h });
    await waitFor(() => expect(options('train-worker')).toEqual([
      ['Any worker of version 2.0.0', false],
      ["#1: runs version 1.0.0, not the project's", true],
      ['#2', false],
      ['#3', true],
    ]));
    expect(screen.getByText("The project's default algorithm image version is 2.0.0: only machines of that engine version")).toBeTruthy();
    expect(h.calls.find((c) => c.url === 'project/getProject')?.body).toEqual({ projectId: PROJECT });
    cleanup();
    await renderPanel(screenOf('policy', true), { host: host('zh-CN', '2.0.0', { 'trainPolicy/list': empty }) });
    await waitFor(() => expect(options('train-worker')[1]).toEqual(['#1: 运行版本 1.0.0，不是项目的版本', true]));
    expect(options('train-worker')[0]).toEqual(['任意 2.0.0 版本的计算节点', false]);
  });

  it('training form: without a version every online machine may be chosen', async () => {
    await renderPanel(screenOf('policy', true), { host: host('en-US', null, { 'trainPolicy/list': empty }) });
    await waitFor(() => expect(options('train-worker')).toEqual([['Any worker', false], ['#1', false], ['#2', false], ['#3', true]]));
  });

  it('deduction form: only the online machines of the version are offered', async () => {
    const h = host('en-US', '2.0.0', { 'simulation/list': empty });
    await renderPanel(screenOf('simulation'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    await waitFor(() => expect(options('deduction-workerId')).toEqual([['Any worker of version 2.0.0', false], ['#2', false]]));
  });
});
