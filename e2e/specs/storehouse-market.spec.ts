/**
 * Issue 20 items 3 and 5 in real Chromium against the real server:
 * - the template storehouse: a user uploads a table of their own (the electric template's kind of
 *   data under their own column names), opens the storehouse from the side menu, matches the table,
 *   sees the electric template proposed with every field found, accepts the mapping and gets a
 *   project whose dataset holds their rows under the template's fields;
 * - the model market: a publisher trains a tiny policy (the scripted flow of `npm run flow`),
 *   opens the market from the side menu and publishes it to the tenant; another user of the tenant
 *   opens the market from the command palette in Chinese, sees the published scores, downloads
 *   the ONNX file and imports the policy into their own project, where it is listed as trained.
 * Screenshots go to `e2e/artifacts/storehouse-*` and `market-*`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Database } from '../../server/src/db/database';
import { runFlow } from '../../server/scripts/flow';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';
import { apiCall } from '../fixtures/account';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

/** A user of the default tenant, written to the e2e server's database. */
async function newUser(): Promise<TestUser> {
  const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
  try {
    return await createUser({ app: { db } } as unknown as TestServer);
  } finally {
    await db.close();
  }
}

async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/sign-in');
  await page.getByTestId('signin-username').fill(user.username);
  await page.getByTestId('signin-password').fill(user.password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(/\/dashboard/);
}

/** Uploads `csv` as a dataset of the signed-in user through the upload calls the workbench uses; resolves with its id. */
async function uploadDataset(page: Page, name: string, csv: string): Promise<string> {
  return page.evaluate(
    async ([n, text]) => {
      const headers = { Authorization: localStorage.getItem('token') ?? '', UserId: localStorage.getItem('userId') ?? '' };
      const post = async (url: string, body: unknown) => {
        const r = (await (await fetch(`/api/${url}`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as { code: number; data: any; message: string };
        if (r.code !== 0) throw new Error(`${url}: ${r.code} ${r.message}`);
        return r.data;
      };
      const bytes = new TextEncoder().encode(text);
      const init = await post('file/uploadpartinit', { name: `${n}.csv`, size: bytes.length, purpose: 'dataset' });
      const put = await fetch(`/api/file/uploadOneFile?uploadId=${init.uploadId}&partNumber=1`, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/octet-stream' }, body: bytes });
      if (!put.ok) throw new Error(`part upload: ${put.status}`);
      const file = await post('file/uploadPartComplete', { uploadId: init.uploadId });
      return (await post('table/create', { fileId: file.fileId, name: n, type: 'business' })).tableId as string;
    },
    [name, csv] as const,
  );
}

/** The electric template's first two rooms under a user's own column names, in another order, with a column of theirs. */
function userTable(): string {
  const lines = fs.readFileSync(path.resolve(import.meta.dirname, '../../plugins/template-electric/data/electric.csv'), 'utf8').trimEnd().split('\n');
  const order = [3, 0, 2, 1, 5, 4, 6];
  const header = ['temperature', 'cold_room_id', 'timestamp', 't', 'cooling_power', 'door_open', 'next_temperature', 'operator'];
  return [header.join(','), ...lines.slice(1, 401).map((l) => [...order.map((i) => l.split(',')[i]), 'shift-a'].join(','))].join('\n') + '\n';
}

describe('template storehouse and model market', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('matches an uploaded table in the storehouse and makes a project with it', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('decisio.locale', 'en-US'));
    const page = await context.newPage();
    reportPageErrors(page);
    const user = await newUser();
    await signIn(page, user);
    const tableId = await uploadDataset(page, 'my cold rooms', userTable());

    await page.getByTestId('side-menu-storehouse.menu').click();
    await page.waitForURL(/\/template-storehouse$/);
    await page.getByTestId('storehouse-template-electric').waitFor();
    const dataset = page.locator('#storehouse-dataset');
    await dataset.locator(`option[value="${tableId}"]`).waitFor({ state: 'attached' });
    await dataset.selectOption(tableId);
    await page.getByTestId('storehouse-recognize').click();
    await page.waitForURL(/recognitionId=/);
    // The electric template leads, every field found; its proposal maps the user's columns.
    await page.getByTestId('storehouse-result-electric').waitFor();
    expect(await page.locator('[data-testid="storehouse-result-rows"] tr').first().getAttribute('data-testid')).toBe('storehouse-result-electric');
    expect(await page.getByTestId('storehouse-result-electric').textContent()).toContain('Every field found');
    expect(await page.getByTestId('storehouse-column-obs_temp').inputValue()).toBe('temperature');
    expect(await page.getByTestId('storehouse-column-next_obs_temp').inputValue()).toBe('next_temperature');
    expect(await page.getByTestId('storehouse-column-factor_door_state').inputValue()).toBe('door_open');
    await shot(page, 'storehouse-recognized');

    // An edit the page refuses before sending, then the accepted mapping.
    await page.getByTestId('storehouse-column-next_obs_temp').selectOption('temperature');
    await page.getByTestId('storehouse-create').click();
    await page.getByTestId('storehouse-issue-obs_temp').waitFor();
    await page.getByTestId('storehouse-column-next_obs_temp').selectOption('next_temperature');
    await page.locator('#storehouse-project-name').fill('My cold rooms');
    await page.getByTestId('storehouse-create').click();
    await page.waitForURL(/\/workflow\/table-correlation\?.*projectId=/);
    const projectId = new URL(page.url()).searchParams.get('projectId')!;
    const datasets = await apiCall<{ rows: { name: string; amount: number; columns: { name: string }[] }[] }>(page, 'table/list', { page: 1, pageSize: 10, projectId });
    expect(datasets.rows).toHaveLength(1);
    expect(datasets.rows[0]!.amount).toBe(400);
    expect(datasets.rows[0]!.columns.map((c) => c.name)).toEqual(['room', 'step', 'time', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    const project = await apiCall<{ name: string }>(page, 'project/getProject', { projectId });
    expect(project.name).toBe('My cold rooms');
    await shot(page, 'storehouse-project');
    await context.close();
  });

  it('opens the storehouse from the command palette in Chinese (dark theme)', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await context.addInitScript(() => {
      localStorage.setItem('decisio.locale', 'zh-CN');
      localStorage.setItem('decisio.theme', 'dark');
    });
    const page = await context.newPage();
    reportPageErrors(page);
    await signIn(page, await newUser());
    await page.getByTestId('side-menu-storehouse.menu').waitFor();
    expect(await page.getByTestId('side-menu-storehouse.menu').textContent()).toContain('模板仓库');
    await page.keyboard.press('F1');
    const input = page.getByTestId('command-palette-input');
    await input.waitFor();
    await input.fill('模板仓库');
    await expect.poll(() => page.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe('command-storehouse.open');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/template-storehouse$/);
    await page.getByTestId('storehouse-template-electric').waitFor();
    // A new user has no dataset yet: the page says where to upload one.
    expect(await page.getByTestId('storehouse-no-dataset').textContent()).toContain('请先在数据集管理中上传');
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await shot(page, 'storehouse-zh-dark');
    await context.close();
  });

  it("publishes a trained policy to the market and another user imports it into their project", async () => {
    const publisher = await newUser();
    const flow = await runFlow({ url: baseUrl, username: publisher.username, password: publisher.password, epochs: 4, policyEpochs: 2, log: () => undefined });
    const policyId = flow.jobs.find((j) => j.step.startsWith('policy training'))!.recordId;

    // The publisher, in English, from the side menu.
    const a = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await a.addInitScript(() => localStorage.setItem('decisio.locale', 'en-US'));
    const pa = await a.newPage();
    reportPageErrors(pa);
    await signIn(pa, publisher);
    await pa.getByTestId('side-menu-market.menu').click();
    await pa.waitForURL(/\/model-market$/);
    await pa.getByTestId('market-publish').click();
    const project = pa.locator('#market-publish-project');
    await project.locator(`option[value="${flow.projectId}"]`).waitFor({ state: 'attached' });
    await project.selectOption(flow.projectId);
    const record = pa.locator('#market-publish-record');
    await record.locator(`option[value="${policyId}"]`).waitFor({ state: 'attached' });
    await record.selectOption(policyId);
    const name = `Heating policy ${Date.now().toString(36)}`;
    await pa.locator('#market-publish-name').fill(name);
    await pa.locator('#market-publish-description').fill('A tiny PPO policy of the scripted flow');
    await pa.locator('#market-publish-note').fill('first');
    await shot(pa, 'market-publish-dialog');
    await pa.getByTestId('market-publish-submit').click();
    await pa.waitForURL(/modelId=/);
    const modelId = new URL(pa.url()).searchParams.get('modelId')!;
    await pa.getByTestId('market-version-1').waitFor();
    const published = await apiCall<{ versions: { report: { reward: number | null } }[] }>(pa, 'market/get', { modelId });
    await shot(pa, 'market-published');
    await a.close();

    // A colleague of the tenant, in Chinese with the dark theme, from the command palette.
    const colleague = await newUser();
    const b = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN', acceptDownloads: true });
    await b.addInitScript(() => {
      localStorage.setItem('decisio.locale', 'zh-CN');
      localStorage.setItem('decisio.theme', 'dark');
    });
    const pb = await b.newPage();
    reportPageErrors(pb);
    await signIn(pb, colleague);
    const own = await apiCall<{ projectId: string }>(pb, 'project/createProject', { name: `imp${Date.now().toString(36).slice(-6)}`, colour: 'blue' });
    await pb.getByTestId('side-menu-market.menu').waitFor();
    await pb.keyboard.press('F1');
    const input = pb.getByTestId('command-palette-input');
    await input.waitFor();
    await input.fill('打开模型市场');
    await expect.poll(() => pb.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe('command-market.open');
    await pb.keyboard.press('Enter');
    await pb.waitForURL(/\/model-market$/);
    await pb.getByTestId(`market-row-${modelId}`).click();
    await pb.getByTestId('market-detail').waitFor();
    expect(await pb.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await shot(pb, 'market-detail-zh-dark');
    // The reward shown is the one the server measured when the policy trained.
    const reward = published.versions[0]!.report.reward;
    expect(await pb.getByTestId('market-version-1-reward').textContent()).toBe(reward === null ? '—' : reward.toFixed(2));
    expect(await pb.getByTestId('market-unpublish').count()).toBe(0);
    const [download] = await Promise.all([pb.waitForEvent('download'), pb.getByTestId('market-onnx-1').click()]);
    expect(download.suggestedFilename()).toMatch(/-v1\.onnx$/);
    expect(fs.statSync((await download.path())!).size).toBeGreaterThan(100);

    await pb.getByTestId('market-import-1').click();
    const target = pb.locator('#market-import-project');
    await target.locator(`option[value="${own.projectId}"]`).waitFor({ state: 'attached' });
    await target.selectOption(own.projectId);
    await pb.getByTestId('market-import-submit').click();
    await pb.getByTestId('market-import-done').waitFor();
    await shot(pb, 'market-imported');
    await pb.getByTestId('market-import-open').click();
    await pb.waitForURL(/\/workflow\/policy\?.*projectId=/);
    const solutionId = new URL(pb.url()).searchParams.get('solutionId')!;
    const policies = await apiCall<{ rows: { name: string; state: string }[] }>(pb, 'policy/list', { solutionId });
    expect(policies.rows.map((p) => p.state)).toEqual(['successful']);
    await pb.getByText(policies.rows[0]!.name).first().waitFor();
    await shot(pb, 'market-imported-policy');
    await b.close();
  }, 600_000);
});
