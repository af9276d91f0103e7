/**
 * Feedback-control trial in real Chromium against the real server (issue 21): a new user opens
 * `/gfs` (-> `/gfs/online-trial`), sees where the compute worker runs and why, checks broken
 * logs (each gets its numbered data-quality code), then trains on a generated log with a known
 * first-order response while the browser is offline: the learned controller must beat the
 * logged actions on the file's own held-out history. The same trial runs on WebGPU (SwiftShader
 * here, `--enable-unsafe-webgpu`); the result is saved and found again under `/gfs/model`. The
 * public `/gfs-encoder` runs in a Chromium without the WebGPU flag (fallback) with no sign-in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall } from '../fixtures/account';
import { Database } from '../../server/src/db/database';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';
import { chromiumPath, launchBrowser, reportPageErrors, shot } from '../fixtures/browser';
import { watchCsp } from '../fixtures/csp';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The known response: y[t+1] = 0.9 y[t] + 0.5 u[t] + noise; the set-point steps between 1 and 2
 * every 150 rows; the logged operator moves u at random around 0.2 with no feedback.
 */
function knownLog(rows: number): string {
  const r = rng(11);
  const lines = ['obs,act,target'];
  let y = 0;
  for (let t = 0; t < rows; t++) {
    const target = Math.floor(t / 150) % 2 === 0 ? 1 : 2;
    const u = 0.2 + 0.8 * (r() * 2 - 1);
    lines.push(`${y.toFixed(5)},${u.toFixed(5)},${target}`);
    y = 0.9 * y + 0.5 * u + 0.02 * (r() - 0.5);
  }
  return `${lines.join('\n')}\n`;
}

const files: Record<string, string> = {};

function writeFiles(): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-e2e-gfs-'));
  const good = knownLog(1200);
  const rows = good.trim().split('\n');
  const put = (name: string, text: string | Buffer) => {
    files[name] = path.join(dir, name);
    fs.writeFileSync(files[name], text);
  };
  put('loop.csv', good);
  put('broken.npz', Buffer.from('PK\u0003\u0004 this is not a zip archive at all'));
  put('nokeys.csv', good.replace('obs,act,target', 'level,valve,target'));
  put('short.csv', `${rows.slice(0, 40).join('\n')}\n`);
  put('nan.csv', `${rows[0]}\n${rows[1]}\n,0.3,1\n${rows.slice(3).join('\n')}\n`);
  put('flat.csv', `${rows.map((l, i) => (i === 0 ? l : l.replace(/^([^,]*),([^,]*),/, '$1,0.5,'))).join('\n')}\n`);
  put('text.csv', `${rows[0]}\n${rows[1]}\nhigh,0.3,1\n${rows.slice(3).join('\n')}\n`);
}

async function choose(name: string): Promise<string> {
  await page.getByTestId('gfs-file').setInputFiles(files[name]!);
  const check = page.getByTestId('gfs-check');
  await expect.poll(async () => ((await check.getAttribute('data-code')) !== null && !(await check.textContent())?.includes('…') ? 'ready' : 'wait'), { timeout: 20_000 }).toBe('ready');
  return (await check.getAttribute('data-code')) ?? '';
}

async function trainAndWait(modelSteps: number, controllerSteps: number, timeout: number, offline = false): Promise<{ controller: number; logged: number; real: number; speed: number }> {
  await page.getByTestId('gfs-model-steps').fill(String(modelSteps));
  await page.getByTestId('gfs-model-steps').press('Tab');
  await page.getByTestId('gfs-controller-steps').fill(String(controllerSteps));
  await page.getByTestId('gfs-controller-steps').press('Tab');
  await page.getByTestId('gfs-train').click();
  // The whole trial runs without the network (the workbench's offline overlay covers the page
  // meanwhile; the worker goes on underneath).
  if (offline) await context.setOffline(true);
  try {
    // Live curves: points arrive while it trains.
    await expect.poll(async () => Number(await page.getByTestId('gfs-chart-model').getAttribute('data-points')), { timeout: 60_000 }).toBeGreaterThan(0);
    await page.getByTestId('gfs-result').waitFor({ timeout, state: 'attached' });
  } finally {
    if (offline) await context.setOffline(false);
  }
  const num = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));
  return { controller: await num('gfs-controller-cost'), logged: await num('gfs-logged-cost'), real: await num('gfs-logged-cost-real'), speed: await num('gfs-speed') };
}

describe('feedback-control trial', () => {
  beforeAll(async () => {
    writeFiles();
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    page = await context.newPage();
    reportPageErrors(page);
    // The account is written straight into the server's database (the sign-up wizard has its own
    // spec); the sign-in page is used as a person would.
    const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
    let user: TestUser;
    try {
      user = await createUser({ app: { db } } as unknown as TestServer);
    } finally {
      await db.close();
    }
    await page.goto('/sign-in');
    await page.getByTestId('signin-username').fill(user.username);
    await page.getByTestId('signin-password').fill(user.password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard/);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the area from the side menu and the palette; /gfs opens the trial and says where it computes and why', async () => {
    // Side menu (from the dashboard).
    await page.getByTestId('side-menu-feedback-control.menu').click();
    await page.waitForURL(/\/gfs\/online-trial/);
    // Palette: F1, an English phrase in the Chinese interface, Enter.
    await page.keyboard.press('F1');
    await page.getByTestId('command-palette-input').fill('saved feedback-control');
    await expect.poll(() => page.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe('command-feedback-control.open-model');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/gfs\/model/);
    await page.getByText('没有已保存的结果').waitFor();
    // The area's address goes to the trial.
    await page.goto('/gfs');
    await page.waitForURL(/\/gfs\/online-trial/);
    const choice = page.getByTestId('gfs-backend-choice');
    await choice.waitFor({ timeout: 30_000 });
    // With --enable-unsafe-webgpu on this machine only SwiftShader answers: auto keeps the CPU path and says so.
    const reason = await choice.getAttribute('data-reason');
    expect(await choice.getAttribute('data-backend')).toBe(reason === 'gpuAdapter' ? 'webgpu' : 'cpu');
    expect(['softwareAdapter', 'gpuAdapter', 'noAdapter']).toContain(reason);
    if (reason === 'softwareAdapter') expect(await choice.textContent()).toContain('只有软件 WebGPU 适配器');
    await shot(page, 'gfs-trial-start');
  });

  it('gives each broken file its data-quality code, in the page language', async () => {
    expect(await choose('broken.npz')).toBe('10002');
    expect(await choose('nokeys.csv')).toBe('10003');
    expect(await page.getByTestId('gfs-check').textContent()).toContain('文件缺少 obs 或 act 序列');
    expect(await choose('short.csv')).toBe('10004');
    expect(await choose('nan.csv')).toBe('10005');
    expect(await choose('flat.csv')).toBe('10006');
    expect(await choose('text.csv')).toBe('10007');
    // A drop that carries no file: "missing file".
    await page.getByTestId('gfs-drop').dispatchEvent('drop', { dataTransfer: await page.evaluateHandle(() => new DataTransfer()) });
    await expect.poll(() => page.getByTestId('gfs-check').getAttribute('data-code')).toBe('10001');
    await shot(page, 'gfs-broken-file');
  });

  it('trains offline on the WebAssembly/CPU path to a controller that beats the logged actions', async () => {
    await page.getByTestId('gfs-backend').locator('select').selectOption('cpu');
    await expect.poll(() => page.getByTestId('gfs-backend-choice').getAttribute('data-reason')).toBe('forcedCpu');
    expect(await choose('loop.csv')).toBe('0');
    const r = await trainAndWait(300, 120, 120_000, true);
    console.info(`[gfs e2e] cpu: controller ${r.controller.toFixed(4)} vs logged ${r.logged.toFixed(4)} (recorded ${r.real.toFixed(4)}), ${r.speed.toFixed(1)} steps/s`);
    expect(r.controller).toBeLessThan(r.logged * 0.5);
    expect(r.controller).toBeLessThan(r.real * 0.5);
    expect(await page.getByTestId('gfs-result').getAttribute('data-beats')).toBe('yes');
    await shot(page, 'gfs-trained-cpu');
    // Save it (the only upload), then find it under /gfs/model.
    await page.getByTestId('gfs-save-name').fill('e2e loop');
    await page.getByTestId('gfs-save').click();
    await expect.poll(async () => (await apiCall<{ total: number }>(page, 'pidData/getPidDataList', {})).total).toBe(1);
  }, 180_000);

  it('runs the same trial on WebGPU (SwiftShader: a correctness figure, not a speed one)', async () => {
    await page.getByTestId('gfs-backend').locator('select').selectOption('webgpu');
    const choice = page.getByTestId('gfs-backend-choice');
    await expect.poll(() => choice.getAttribute('data-reason'), { timeout: 30_000 }).not.toBe('forcedCpu');
    const reason = await choice.getAttribute('data-reason');
    if (reason !== 'forcedWebgpu') {
      // No adapter at all on this machine: the fallback says why and the trial still runs on the CPU path.
      expect(['noAdapter', 'webgpuFailed']).toContain(reason);
    } else {
      expect(await choice.getAttribute('data-backend')).toBe('webgpu');
    }
    const r = await trainAndWait(120, 40, 240_000);
    console.info(`[gfs e2e] ${reason}: controller ${r.controller.toFixed(4)} vs logged ${r.logged.toFixed(4)}, ${r.speed.toFixed(2)} steps/s`);
    expect(Number.isFinite(r.controller) && Number.isFinite(r.logged)).toBe(true);
    expect(r.controller).toBeLessThan(r.logged);
    await shot(page, 'gfs-trained-webgpu');
  }, 300_000);

  it('lists the saved result under /gfs/model and opens it', async () => {
    await page.goto('/gfs/model');
    const row = page.getByTestId('gfs-list').getByText('e2e loop');
    await row.waitFor();
    await row.click();
    await page.getByTestId('gfs-result').waitFor();
    expect(await page.getByTestId('gfs-result').getAttribute('data-beats')).toBe('yes');
  });

  it('opens the public /gfs-encoder without sign-in in a Chromium without WebGPU, and learns there', async () => {
    const plain = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'] });
    try {
      const ctx = await plain.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      await watchCsp(ctx);
      const p = await ctx.newPage();
      reportPageErrors(p);
      await p.goto('/gfs-encoder');
      const choice = p.getByTestId('gfs-backend-choice');
      await choice.waitFor({ timeout: 30_000 });
      expect(await choice.getAttribute('data-backend')).toBe('cpu');
      expect(['noWebgpuApi', 'noAdapter', 'softwareAdapter']).toContain(await choice.getAttribute('data-reason'));
      await p.getByTestId('gfs-file').setInputFiles(files['loop.csv']!);
      await expect.poll(() => p.getByTestId('gfs-check').getAttribute('data-code'), { timeout: 20_000 }).toBe('0');
      await p.getByTestId('gfs-train').click();
      await p.getByTestId('gfs-chart-onestep').waitFor({ timeout: 120_000 });
      expect(Number(await p.getByTestId('gfs-model-mse').textContent())).toBeLessThan(0.05);
      await shot(p, 'gfs-public-encoder');
    } finally {
      await plain.close();
    }
  }, 180_000);
});
