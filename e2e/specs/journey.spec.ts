/**
 * The whole way from a template to a called decision service (issue 16 item 5), in real
 * Chromium against the real server, through the menus and the command palette only: no address
 * is typed after signing in. Once in each language (a new user each; the English one switches the
 * interface on the dashboard first): start the electric template from the dashboard card, follow
 * the step guide to the decision graph, open data modelling from the palette and process a
 * scheme, open the environments from the side menu and train a small environment, find the
 * template's reward from the side menu, "New policy training" from the palette, "Deploy a policy"
 * from the palette, create and start the service, open its call records from the palette and call
 * it as `curl` would (outside the browser, with its token) until the call is listed.
 * One screenshot per step: `e2e/artifacts/journey-<locale>-<nn>-<step>.png`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const TINY_BC = '{"epochs": 200, "hidden": [16], "updatesPerStep": 4, "batchSize": 32, "evalEvery": 100}';
const TINY_PPO = '{"epochs": 2, "bcUpdates": 5, "batchSize": 8, "horizon": 4, "evalWindows": 8, "hidden": [16]}';

/** What a person types and reads in each language. */
const WORDS = {
  'zh-CN': { palette: 'F1', scheme: '数据建模', newPolicy: '新建策略', deploy: '部署策略', records: '调用记录', card: '冷库温控', reward: '温度与能耗', success: '成功', running: '运行中' },
  'en-US': { palette: 'Control+Shift+P', scheme: 'data modelling', newPolicy: 'new policy', deploy: 'deploy a policy', records: 'call records', card: 'Cold room', reward: 'Temperature & power', success: 'Successful', running: 'Running' },
} as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  const words = WORDS[locale];
  const user = newUser(locale === 'zh-CN' ? 'e2ejz' : 'e2eje');
  let context: BrowserContext;
  let page: Page;
  let step = 0;
  const ids = { serviceId: '', token: '' };
  /** Page loads of another address after signing in: none (a `goto` or a full reload elsewhere would show here). */
  const loads: string[] = [];

  /** The screenshot of a step, numbered in order. */
  const shotStep = async (name: string) => {
    step += 1;
    await shot(page, `journey-${locale}-${String(step).padStart(2, '0')}-${name}`);
  };

  /** Opens the palette with `key`, types `query`, checks that `first` leads the list and runs it with Enter. */
  const palette = async (key: string, query: string, first: string) => {
    await page.keyboard.press(key);
    const input = page.getByTestId('command-palette-input');
    await input.waitFor();
    await input.fill(query);
    await expect.poll(() => page.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe(`command-${first}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => input.count()).toBe(0);
  };

  /** Waits for a training row to reach a final state; returns its state text. */
  const finished = async (row: Locator, ms: number) => {
    await expect.poll(async () => (await row.getByTestId('state-tag').textContent()) ?? '', { timeout: ms, interval: 1000 }).toMatch(/成功|失败|Successful|Failure/);
    return (await row.getByTestId('state-tag').textContent()) ?? '';
  };

  /** Selects the option of `select` whose text contains `text`. */
  const choose = async (select: Locator, text: string) => {
    const option = select.locator('option', { hasText: text }).first();
    await option.waitFor({ state: 'attached' });
    await select.selectOption((await option.getAttribute('value'))!);
  };

  describe(`journey (${locale}): from a template to a called decision service through menus and the palette`, () => {
    beforeAll(async () => {
      context = await newContext(browser, baseUrl);
      page = await context.newPage();
      reportPageErrors(page);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail') await shot(page, `journey-${locale}-failed-${ctx.task.name.slice(0, 40)}`).catch(() => undefined);
    });

    afterAll(async () => {
      await context?.close();
    });

    it('starts the electric template from the dashboard and follows the guide to the decision graph', async () => {
      await signUpAndIn(page, user, 'Journey');
      page.on('request', (r) => {
        // A page load to another address than the current one (a reload keeps the address).
        if (r.isNavigationRequest() && r.frame() === page.mainFrame() && r.redirectedFrom() === null && r.url() !== page.url()) loads.push(r.url());
      });
      const card = page.getByTestId('guided-template-electric');
      await card.waitFor();
      if (locale === 'en-US') await page.getByTestId('language-switch').selectOption('en-US');
      await expect.poll(() => card.textContent()).toContain(words.card);
      await shotStep('dashboard');
      await page.getByTestId('guided-start-electric').click();
      await page.waitForURL(/\/workflow\/table-correlation\?/, { timeout: 30_000 });
      await page.getByTestId('correlation-panel').waitFor();
      await expect.poll(() => page.getByTestId('corr-trajectory').inputValue(), { timeout: 15_000 }).toBe('room');
      await shotStep('data-access');
      await page.getByTestId('workflow-guide-next').click();
      await page.waitForURL(/\/workflow\/pattern\?/);
      await page.getByTestId('pattern-node-temperature').waitFor({ timeout: 20_000 });
      await shotStep('decision-graph');
    });

    it('opens data modelling from the palette and processes a scheme', async () => {
      await palette(words.palette, words.scheme, 'workflow.open-scheme');
      await page.waitForURL(/\/workflow\/scheme\?/);
      await page.getByTestId('modelling-scheme').waitFor();
      await page.getByTestId('modelling-new').first().click();
      await page.locator('#scheme-name').fill('scheme one');
      await page.locator('#scheme-start').fill('2026-01-01');
      await page.locator('#scheme-end').fill('2026-01-04');
      await page.getByTestId('scheme-submit').click();
      const scheme = page.getByTestId('scheme-row').first();
      await scheme.waitFor();
      await scheme.getByTestId('scheme-process').click();
      await expect.poll(() => scheme.getByTestId('state-tag').textContent(), { timeout: 90_000 }).toMatch(/已完成|Completed/);
      await shotStep('scheme');
    }, 120_000);

    it('opens the environments from the side menu and trains an environment', async () => {
      await page.getByTestId('side-menu-workflow.menu-environment').click();
      await page.waitForURL(/\/workflow\/simulator\?/);
      await page.getByTestId('modelling-environment').waitFor();
      await page.getByTestId('modelling-new').first().click();
      await page.getByTestId('train-form').waitFor();
      await page.getByTestId('train-name').fill('env bc');
      await page.getByTestId('train-scheme').selectOption({ label: 'scheme one' });
      await page.getByTestId('train-hyper').fill(TINY_BC);
      await page.getByTestId('train-submit').click();
      await page.getByTestId('train-form').waitFor({ state: 'detached' });
      const row = page.getByTestId('training-row').filter({ hasText: 'env bc' });
      expect(await finished(row, 240_000)).toBe(words.success);
      await row.click();
      await page.getByTestId('training-detail').getByTestId('modelling-curves').first().waitFor();
      await shotStep('environment');
    }, 300_000);

    it('finds the template’s reward from the side menu', async () => {
      await page.getByTestId('side-menu-workflow.menu-reward').click();
      await page.waitForURL(/\/workflow\/objective\?/);
      await page.getByTestId('modelling-reward').waitFor();
      await page.getByRole('menuitem', { name: words.reward }).waitFor();
      await shotStep('reward');
    });

    it('trains a policy from "New policy training" in the palette', async () => {
      await palette(words.palette, words.newPolicy, 'policy.new');
      await page.waitForURL(/\/workflow\/policy\/train\?/);
      await page.getByTestId('train-form').waitFor();
      await page.getByTestId('train-name').fill('policy ppo');
      await page.getByTestId('train-simulator').selectOption({ label: 'env bc' });
      await choose(page.getByTestId('train-objective'), words.reward);
      await page.getByTestId('train-algorithm').selectOption('ppo');
      await page.getByTestId('train-hyper').fill(TINY_PPO);
      await shotStep('policy-form');
      await page.getByTestId('train-submit').click();
      await page.getByTestId('train-form').waitFor({ state: 'detached' });
      const row = page.getByTestId('training-row').filter({ hasText: 'policy ppo' });
      expect(await finished(row, 240_000)).toBe(words.success);
      await shotStep('policy');
    }, 300_000);

    it('deploys the policy from "Deploy a policy" in the palette and starts the service', async () => {
      await palette(words.palette, words.deploy, 'deploy.open-deploy');
      await page.waitForURL(/\/project\/deploy\?/);
      await page.getByTestId('deploy-create').first().click();
      await page.locator('#deploy-name').fill('cold room online');
      await choose(page.locator('#deploy-policy'), 'policy ppo');
      await page.getByTestId('deploy-submit').click();
      const token = page.locator('#deploy-token-token');
      await token.waitFor();
      ids.token = await token.inputValue();
      expect(ids.token).toMatch(/^dk_/);
      ids.serviceId = (await page.locator('#deploy-token-address').inputValue()).split('/').pop()!;
      await shotStep('deploy-token');
      await page.getByTestId('deploy-token-close').click();
      const start = page.getByTestId('deploy-start');
      await start.waitFor({ timeout: 60_000 });
      await start.click();
      await page.getByTestId('deploy-rows').getByText(words.running).waitFor({ timeout: 60_000 });
      await shotStep('deploy-running');
    }, 120_000);

    it('opens the call records from the palette, calls the service as curl does and finds the call', async () => {
      await page.getByTestId('deploy-rows').getByText('cold room online').click();
      await page.waitForURL(/\/project\/deploy-detail\?/);
      const example = (await page.getByTestId('deploy-example').textContent()) ?? '';
      const body = /-d '(.*)'/s.exec(example)![1]!;
      const res = await fetch(`${baseUrl}/api/decide/${ids.serviceId}`, { method: 'POST', headers: { Authorization: `Bearer ${ids.token}`, 'Content-Type': 'application/json' }, body });
      expect(res.status).toBe(200);
      const reply = (await res.json()) as { code: number; data: { decisionId: string; decisions: Record<string, number> } };
      expect(reply.code).toBe(0);
      for (const v of Object.values(reply.data.decisions)) expect(Number.isFinite(v)).toBe(true);
      await palette(words.palette, words.records, 'deploy.open-records');
      await page.waitForURL(/section=records/);
      const records = page.getByTestId('deploy-records');
      // The records are written in batches: reload the page (same address) until the call shows.
      for (let i = 0; i < 40 && !(await records.getByText(reply.data.decisionId).count()); i++) {
        await page.waitForTimeout(500);
        await page.reload();
        await page.getByTestId('deploy-address').waitFor();
      }
      await records.getByText(reply.data.decisionId).waitFor();
      await records.getByText(reply.data.decisionId).scrollIntoViewIfNeeded();
      await shotStep('call-records');
      expect(loads, 'page loads of another address after signing in').toEqual([]);
    });
  });
}
