/**
 * Data flow in real Chromium against the real server (issue 6 part 7): a new user signs up and
 * in, gets a project and a solution, previews a small csv in the browser (DuckDB-WASM in the data
 * worker), sees a duplicate-column file refused before upload, uploads a generated csv of 200 MB
 * with a progress bar, interrupts it by reloading the page mid-upload and resumes it, imports a
 * table from the MariaDB of `TEST_MYSQL_URL` (skipped with the reason when there is none)
 * through a data connection, and sets up the
 * data-access step. Screenshots go to `e2e/artifacts/`.
 *
 * The first upload is throttled (Chromium's network emulation, 16 MB/s) so that the reload
 * reliably lands mid-upload; the resumed one runs at full speed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';
import { skipWithout } from '../../server/src/test/services';

const baseUrl = inject('baseUrl');
const stamp = Date.now().toString(36);
const user = newUser('e2ed');
const scratchDb = `decisio_e2e_${stamp}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;
const files = { small: '', dup: '', big: '' };
/** Data rows of the big file. */
let bigRows = 0;
const BIG_BYTES = 200 * 1024 * 1024;
let projectId = '';
let solutionId = '';

/** A POST call of the api from the signed-in page. */
const call = <T>(url: string, body: unknown): Promise<T> => apiCall<T>(page, url, body);

function writeCsvFiles(): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-e2e-data-'));
  files.small = path.join(dir, 'e2e_small.csv');
  files.dup = path.join(dir, 'e2e_dup.csv');
  files.big = path.join(dir, 'e2e_big.csv');
  const small = ['id,traj,step,speed,label'];
  for (let i = 0; i < 40; i++) small.push(`${i},${Math.floor(i / 10)},${i % 10},${(i * 0.37).toFixed(3)},${i % 3 === 0 ? 'a' : 'b'}`);
  fs.writeFileSync(files.small, small.join('\n') + '\n');
  fs.writeFileSync(files.dup, 'a,b,A\n1,2,3\n4,5,6\n');
  // 200 MB, written in blocks of lines (one string of it all would not be kind to memory)
  const fd = fs.openSync(files.big, 'w');
  let size = 0;
  const header = 'customer_id,region_code,score,comment\n';
  fs.writeSync(fd, header);
  size += header.length;
  for (let i = 0; size < BIG_BYTES; ) {
    let block = '';
    for (let k = 0; k < 10_000 && size + block.length < BIG_BYTES; k++, i++) block += `${i},${i % 17},${((i * 7919) % 1000) / 10},row number ${i} of the generated file\n`;
    fs.writeSync(fd, block);
    size += block.length;
    bigRows = i;
  }
  fs.closeSync(fd);
}

async function openUploadDialog(): Promise<void> {
  await page.goto('/dataset-manage');
  await page.getByTestId('datasets-panel').waitFor();
  await page.getByTestId('datasets-upload').click();
  await page.getByTestId('upload-choose').waitFor();
}

beforeAll(async () => {
  writeCsvFiles();
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
  // Browser-side failures (the data worker, DuckDB-WASM) end up in the test output.
  reportPageErrors(page, { warnings: true, requests: true });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (process.env.TEST_MYSQL_URL) {
    const c = await mysql.createConnection({ uri: process.env.TEST_MYSQL_URL });
    await c.query(`DROP DATABASE IF EXISTS \`${scratchDb}\``);
    await c.end();
  }
});

describe('data: datasets, uploads, imports and the data-access step', () => {
  it('signs a new user up and in, and makes a project with a solution', async () => {
    await signUpAndIn(page, user, 'DataTester');
    const project = await call<{ projectId: string }>('project/createProject', { name: `data ${stamp}`.slice(0, 20), colour: 'ocean' });
    projectId = project.projectId;
    const solution = await call<{ solutionId: string }>('solution/create', { projectId, name: 'data access', dataType: 'data_driven', goalType: 'policy_search' });
    solutionId = solution.solutionId;
    expect(projectId).toBeTruthy();
    expect(solutionId).toBeTruthy();
  });

  it('shows the empty dataset list, previews a small csv in the browser and refuses a duplicate-column file', async () => {
    await page.goto('/dataset-manage');
    await page.getByTestId('datasets-empty').waitFor();
    await shot(page, 'data-datasets-empty');
    await page.getByTestId('datasets-upload').click();
    await page.getByTestId('upload-file').setInputFiles(files.dup);
    await page.getByTestId('upload-issue-duplicateColumns').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('upload-issue-duplicateColumns').textContent()).toContain('列名重复');
    expect(await page.getByTestId('upload-start').isDisabled()).toBe(true);
    await shot(page, 'data-upload-duplicate-columns');
    await page.getByTestId('upload-file').setInputFiles(files.small);
    await page.getByTestId('upload-preview').waitFor();
    const headers = await page.getByTestId('upload-preview').locator('th').allTextContents();
    expect(headers.map((h) => h.split(' ')[0])).toEqual(['id', 'traj', 'step', 'speed', 'label']);
    await page.getByTestId('upload-stats').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('upload-stats').locator('tbody tr').count()).toBe(5);
    expect(await page.getByTestId('upload-name').inputValue()).toBe('e2e_small');
    await shot(page, 'data-upload-preview');
    // Upload it and set its fields.
    await page.getByTestId('upload-start').click();
    await page.getByTestId('dataset-preview').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('dataset-preview').locator('tbody tr').count()).toBe(20);
    await page.getByTestId('field-min-speed').fill('5');
    await page.getByTestId('field-max-speed').fill('1');
    await page.getByTestId('fields-save').click();
    await page.getByTestId('field-error-speed').waitFor();
    await page.getByTestId('field-min-speed').fill('0');
    await page.getByTestId('field-max-speed').fill('20');
    await page.getByTestId('fields-save').click();
    await page.getByText('字段设置已保存').waitFor();
    await shot(page, 'data-dataset-fields');
    const dataset = (await call<{ rows: { name: string; columns: { name: string; min: number | null; max: number | null }[] }[] }>('table/list', { page: 1, pageSize: 20 })).rows.find((d) => d.name === 'e2e_small');
    expect(dataset?.columns.find((c) => c.name === 'speed')).toMatchObject({ min: 0, max: 20 });
  });

  it('uploads a generated csv with a progress bar, interrupted by a reload and resumed', async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 16 * 1024 * 1024 });
    await openUploadDialog();
    await page.getByTestId('upload-file').setInputFiles(files.big);
    await page.getByTestId('upload-preview').waitFor({ timeout: 60_000 });
    await page.getByTestId('upload-start').click();
    await page.getByTestId('upload-progress').waitFor();
    await expect.poll(async () => Number(await page.getByTestId('upload-progress-text').getAttribute('data-percent')), { timeout: 120_000 }).toBeGreaterThanOrEqual(20);
    await shot(page, 'data-upload-progress');
    const before = Number(await page.getByTestId('upload-progress-text').getAttribute('data-percent'));
    expect(before).toBeLessThan(100);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId('datasets-panel').waitFor();
    await page.getByTestId('datasets-upload').click();
    await page.getByTestId('upload-file').setInputFiles(files.big);
    await page.getByTestId('upload-preview').waitFor({ timeout: 60_000 });
    await page.getByTestId('upload-start').click();
    await page.getByTestId('upload-resumed').waitFor();
    await shot(page, 'data-upload-resumed');
    await page.getByTestId('dataset-preview').waitFor({ timeout: 180_000 });
    await page.keyboard.press('Escape');
    const list = await call<{ rows: { name: string; amount: number; size: number }[] }>('table/list', { page: 1, pageSize: 20 });
    const big = list.rows.find((d) => d.name === 'e2e_big');
    expect(big?.size).toBe(fs.statSync(files.big).size);
    expect(big?.amount).toBe(bigRows);
    await page.getByTestId('dataset-row-e2e_big').waitFor();
    await shot(page, 'data-datasets-list');
    await cdp.detach();
  }, 300_000);

  // Needs a MariaDB (`TEST_MYSQL_URL`, which `npm test` sets when it finds or starts one);
  // without it the test is skipped with the reason, and the next step uses the uploaded csv.
  it.skipIf(skipWithout('mysql', import.meta.url))('imports a table from MariaDB through a data connection', async () => {
    const url = process.env.TEST_MYSQL_URL!;
    const target = new URL(url);
    const c = await mysql.createConnection({ uri: url });
    await c.query(`CREATE DATABASE \`${scratchDb}\``);
    await c.query(`CREATE TABLE \`${scratchDb}\`.orders (id INT PRIMARY KEY, traj INT, step INT, ts DATETIME, customer_id INT, amount DOUBLE)`);
    const rows = Array.from({ length: 60 }, (_, i) => [i, Math.floor(i / 20), i % 20, new Date(Date.UTC(2026, 0, 1, 0, i)), i % 7, i * 1.5]);
    await c.query(`INSERT INTO \`${scratchDb}\`.orders VALUES ?`, [rows]);
    await c.end();

    await page.goto('/data-connection');
    await page.getByTestId('connections-create').click();
    await page.getByTestId('conn-name').fill(`e2e maria ${stamp}`);
    await page.getByTestId('conn-url').fill(`jdbc:mysql://${target.hostname}:${target.port || '3306'}/${scratchDb}`);
    await page.getByTestId('conn-username').fill(decodeURIComponent(target.username || 'root'));
    if (target.password) await page.getByTestId('conn-password').fill(decodeURIComponent(target.password));
    await page.getByTestId('conn-save').click();
    await page.getByTestId('connection-row').first().waitFor();

    await page.goto('/dataset-manage');
    await page.getByTestId('datasets-import').click();
    const connection = page.getByTestId('import-connection');
    await expect.poll(() => connection.locator('option').count()).toBe(2);
    await connection.selectOption({ index: 1 });
    const table = page.getByTestId('import-table');
    await expect.poll(() => table.locator('option').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await table.selectOption({ label: (await table.locator('option').nth(1).textContent()) ?? '' });
    await page.getByTestId('import-name').fill('maria_orders');
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-status').waitFor();
    await shot(page, 'data-import-progress');
    await page.getByTestId('dataset-preview').waitFor({ timeout: 90_000 });
    await shot(page, 'data-import-done');
    await page.keyboard.press('Escape');
    const list = await call<{ rows: { name: string; amount: number; fileType: string }[] }>('table/list', { page: 1, pageSize: 20 });
    expect(list.rows.find((d) => d.name === 'maria_orders')).toMatchObject({ amount: 60, fileType: 'sql' });
  });

  it('sets up the data-access step: primary table, fields, every table connected', async () => {
    const list = await call<{ rows: { tableId: string; name: string }[] }>('table/list', { page: 1, pageSize: 20 });
    const primary = list.rows.find((d) => d.name === 'maria_orders') ?? list.rows.find((d) => d.name === 'e2e_small')!;
    const other = list.rows.find((d) => d.name === 'e2e_big')!;
    await page.goto(`/workflow/table-correlation?projectId=${projectId}&solutionId=${solutionId}`);
    await page.getByTestId('corr-save').waitFor();
    await page.getByTestId('corr-save').click();
    await page.getByText('请选择主表').waitFor();
    await shot(page, 'data-correlation-errors');
    await page.getByTestId('corr-table-0').selectOption(primary.tableId);
    await page.getByTestId('corr-trajectory').selectOption('traj');
    await page.getByTestId('corr-sequence').selectOption('step');
    await page.getByTestId('corr-datetime').selectOption(primary.name === 'maria_orders' ? 'ts' : 'id');
    await page.getByTestId('corr-add-table').click();
    await page.getByTestId('corr-table-1').selectOption(other.tableId);
    await page.getByTestId('corr-save').click();
    await page.getByText('每张表都必须关联').waitFor();
    await page.getByTestId('corr-add-relation').click();
    await page.getByTestId('corr-rel-0-fromField').selectOption(primary.name === 'maria_orders' ? 'customer_id' : 'id');
    await page.getByTestId('corr-rel-0-to').selectOption(other.tableId);
    await page.getByTestId('corr-rel-0-toField').selectOption('customer_id');
    await page.getByTestId('corr-save').click();
    await page.getByText('数据接入已保存').waitFor();
    await shot(page, 'data-correlation-saved');
    const saved = await call<{ correlation: { primaryTableId: string; trajectoryField: string; relations: unknown[] } }>('solution/getTableCorrelation', { solutionId });
    expect(saved.correlation).toMatchObject({ primaryTableId: primary.tableId, trajectoryField: 'traj', relations: [{ from: primary.tableId, to: other.tableId, toField: 'customer_id' }] });
    await page.reload();
    await expect.poll(() => page.getByTestId('corr-trajectory').inputValue()).toBe('traj');
  });
});
