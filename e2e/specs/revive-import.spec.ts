/**
 * A REVIVE folder into a solution through the UI (issue 22 item 5), in real Chromium against the
 * real server: the test writes a small REVIVE folder (refrigerator-style YAML with min/max, REVIVE's
 * CSV with node-named columns and pandas' unnamed row-number column, reward.py), a signed-in user
 * opens the decision-graph editor of a new solution, picks the three files in "REVIVE folder",
 * answers the unnamed-column question (drop it), reads what was mapped and sees the graph drawn.
 * The server's records are checked too (graph, table of the YAML's fields, reward). The workbench
 * runs in its default language, Chinese (the panel tests cover English).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall } from '../fixtures/account';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';
import { Database } from '../../server/src/db/database';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';
import { createSolution } from '../../server/src/modules/modelling/testing';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

const YAML = `metadata:
  graph:
    action:
    - temperature
    next_temperature:
    - action
    - temperature
    - door_open
  columns:
  - obs_temp:
      dim: temperature
      type: continuous
      max: 20
      min: -20
  - power_action:
      dim: action
      type: continuous
      max: 10
      min: 0
  - factor_door_state:
      dim: door_open
      type: continuous
`;

const REWARD = `import numpy as np

def get_reward(data):
    return -np.abs(data['next_temperature'][:, :1] + 2.0)
`;

/** REVIVE's refrigerator csv layout: 3 trajectories of 8 steps, pandas row numbers in an unnamed first column. */
function fridgeCsv(): string {
  const lines = [',door_open,temperature,action,next_temperature'];
  let row = 0;
  for (let t = 0; t < 3; t++) {
    let temp = 8 + 2 * t;
    for (let k = 0; k < 8; k++) {
      const action = 1 + 0.2 * ((k + t) % 4);
      const door = (k + t) % 5 === 0 ? 1 : 0;
      const next = temp - 0.6 * action + 0.8 * door;
      lines.push([row++, door, temp, action, next.toFixed(4)].join(','));
      temp = Number(next.toFixed(4));
    }
  }
  return `${lines.join('\n')}\n`;
}

let browser: Browser;
let page: Page;
let folder: string;
let ids: { projectId: string; solutionId: string };

describe('REVIVE folder import in the decision-graph editor', () => {
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-revive-'));
    fs.writeFileSync(path.join(folder, 'refrigeration.yaml'), YAML);
    fs.writeFileSync(path.join(folder, 'refrigerator.csv'), fridgeCsv());
    fs.writeFileSync(path.join(folder, 'reward.py'), REWARD);
    const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
    let user: TestUser;
    try {
      const fake = { app: { db } } as unknown as TestServer;
      user = await createUser(fake);
      ids = await createSolution(fake, user);
    } finally {
      await db.close();
    }
    browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
    page = await context.newPage();
    reportPageErrors(page);
    await page.goto('/sign-in');
    await page.getByTestId('signin-username').fill(user.username);
    await page.getByTestId('signin-password').fill(user.password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard/);
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('imports the folder, asks about the unnamed column, reports the mapping and draws the graph', async () => {
    await page.goto(`/workflow/pattern?projectId=${ids.projectId}&solutionId=${ids.solutionId}`);
    await page.getByTestId('pattern-editor').waitFor({ timeout: 30_000 });
    await page.getByTestId('pattern-revive').click();
    await page.getByTestId('revive-yaml-input').setInputFiles(path.join(folder, 'refrigeration.yaml'));
    await page.getByTestId('revive-data-input').setInputFiles(path.join(folder, 'refrigerator.csv'));
    await page.getByTestId('revive-reward-input').setInputFiles(path.join(folder, 'reward.py'));
    await expect.poll(() => page.getByTestId('revive-table-name').inputValue()).toBe('refrigerator');
    await page.getByTestId('revive-import').click();
    const question = page.getByTestId('revive-index-question');
    // the question, or a refusal whose text says why
    await page.locator('[data-testid="revive-index-question"], [data-testid="revive-error"], [data-testid="revive-problem"]').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid="revive-error"], [data-testid="revive-problem"]').allTextContents()).toEqual([]);
    expect(await question.textContent()).toContain('第 1 列没有名称');
    await shot(page, 'revive-import-question');
    // "Drop it" (删除) is the default answer
    await page.getByTestId('revive-import').click();
    const report = page.getByTestId('revive-report');
    await report.waitFor({ timeout: 60_000 });
    expect(await report.textContent()).toContain('共 24 行，3 条轨迹');
    const mapped = (await page.getByTestId('revive-mapped').textContent()) ?? '';
    for (const s of ['temperature', 'obs_temp', 'next_temperature', 'next_obs_temp', 'door_open', 'factor_door_state', 'power_action']) expect(mapped).toContain(s);
    expect(await page.getByTestId('revive-index-column').textContent()).toBe('已删除未命名的第 1 列。');
    const tempBounds = page.getByTestId('revive-bounds').locator('tr', { hasText: 'obs_temp' }).first();
    expect(await tempBounds.textContent()).toMatch(/-20.*20.*YAML（保留）/);
    await shot(page, 'revive-import-report');
    await page.getByTestId('revive-close').click();
    for (const n of ['temperature', 'action', 'next_temperature', 'door_open']) await page.getByTestId(`pattern-node-${n}`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.react-flow__edge').count(), { timeout: 20_000 }).toBe(4);
    await shot(page, 'revive-import-graph');
    // what the server made
    const stored = await apiCall<{ graph: { nodes: { name: string; role: string; fields: { name: string; min?: number; max?: number }[] }[] } }>(page, 'solution/getPattern', { solutionId: ids.solutionId });
    expect(stored.graph.nodes.find((n) => n.name === 'temperature')!.fields[0]).toMatchObject({ name: 'obs_temp', min: -20, max: 20 });
    expect(stored.graph.nodes.find((n) => n.name === 'action')!.role).toBe('agent');
    const rewards = await apiCall<{ rows: { name: string }[] }>(page, 'objective/list', { solutionId: ids.solutionId });
    expect(rewards.rows.map((r) => r.name)).toContain('reward');
  });
});
