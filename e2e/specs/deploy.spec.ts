/**
 * Online decision services in real Chromium against the real server (issue 9, "done when"): a
 * new user signs up and in, trains a policy through the modelling workflow (the scripted flow of
 * `npm run flow`, through the same HTTP API the workbench uses), deploys it from the model deploy
 * page (the token is shown once), starts it, calls it as the page's curl example says (from outside
 * the browser, with the access token), reports the decision's outcome, sees the call with its
 * inputs, decisions and outcome in the records and in the monitor chart, and turns the kept calls
 * into a dataset of the project, then tries a decision from the service page's form (the
 * session's `modeldeploy/decision`, recorded like a call). Screenshots go to `e2e/artifacts/deploy-*`.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runFlow } from '../../server/scripts/flow';
import { apiCall, newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const user = newUser('e2edep');

let browser: Browser;
let context: BrowserContext;
let page: Page;
const ids = { projectId: '', solutionId: '', policyId: '', serviceId: '', token: '', decisionId: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseUrl);
  page = await context.newPage();
  reportPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Polls the service until its status is `want`. */
async function statusOf(want: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const d = await apiCall<{ status: string; failureReason: string | null }>(page, 'modeldeploy/queryDetail', { id: ids.serviceId });
    if (d.status === want) return;
    if (d.status === 'failure') throw new Error(`the service failed: ${d.failureReason}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the service never became ${want}`);
}

describe('deploy: a trained policy behind an address and a token', () => {
  it('signs a new user up and in and trains a policy through the workflow', async () => {
    await signUpAndIn(page, user, 'Deployer');
    const flow = await runFlow({ url: baseUrl, username: user.username, password: user.password, epochs: 8, policyEpochs: 3, log: () => undefined });
    ids.projectId = flow.projectId;
    ids.solutionId = flow.solutionId;
    ids.policyId = flow.jobs.find((j) => j.step.startsWith('policy training'))!.recordId;
    expect(ids.policyId).toMatch(/^[0-9a-f]{32}$/);
  }, 600_000);

  it('deploys the policy from the model deploy page, shows the token once and starts the service', async () => {
    await page.goto(`/project/deploy?projectId=${ids.projectId}`);
    await page.getByTestId('deploy-create').first().click();
    await shot(page, 'deploy-list-empty');
    await page.locator('#deploy-name').fill('heating online');
    const policy = page.locator('#deploy-policy');
    await policy.locator(`option[value="${ids.policyId}"]`).waitFor({ state: 'attached' });
    await policy.selectOption(ids.policyId);
    await shot(page, 'deploy-create-dialog');
    await page.getByTestId('deploy-submit').click();
    const token = page.locator('#deploy-token-token');
    await token.waitFor();
    ids.token = await token.inputValue();
    expect(ids.token).toMatch(/^dk_/);
    const address = await page.locator('#deploy-token-address').inputValue();
    ids.serviceId = address.split('/').pop()!;
    expect(address).toBe(`${baseUrl}/api/decide/${ids.serviceId}`);
    await shot(page, 'deploy-token-once');
    await page.getByTestId('deploy-token-close').click();
    await statusOf('waiting');
    await page.getByTestId('deploy-start').click();
    await statusOf('running');
    await page.getByTestId('deploy-rows').getByText('运行中').waitFor();
    await shot(page, 'deploy-list-running');
  });

  it('answers the curl call of the detail page, records it and charts it', async () => {
    await page.getByTestId('deploy-rows').getByText('heating online').click();
    await page.waitForURL(/\/project\/deploy-detail/);
    const example = (await page.getByTestId('deploy-example').textContent()) ?? '';
    expect(example).toContain(`${baseUrl}/api/decide/${ids.serviceId}`);
    // The call as the README's curl makes it: outside the browser, with the access token.
    const body = /-d '(.*)'/s.exec(example)![1]!;
    const res = await fetch(`${baseUrl}/api/decide/${ids.serviceId}`, { method: 'POST', headers: { Authorization: `Bearer ${ids.token}`, 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { code: number; data: { decisionId: string; decisions: Record<string, number> } };
    expect(reply.code).toBe(0);
    ids.decisionId = reply.data.decisionId;
    const decided = Object.values(reply.data.decisions);
    expect(decided.length).toBeGreaterThan(0);
    for (const v of decided) expect(Number.isFinite(v)).toBe(true);
    // a wrong token is refused
    expect((await fetch(`${baseUrl}/api/decide/${ids.serviceId}`, { method: 'POST', headers: { Authorization: 'Bearer dk_wrong', 'Content-Type': 'application/json' }, body })).status).toBe(401);
    // what followed the decision, reported back
    const outcome = await fetch(`${baseUrl}/api/decide/${ids.serviceId}/outcome`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ids.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ decisionId: ids.decisionId, outcome: { reward: -0.5 } }),
    });
    expect(outcome.status).toBe(200);

    // the records are written in batches: reload until the call is listed
    const records = page.getByTestId('deploy-records');
    for (let i = 0; i < 40 && !(await records.getByText(ids.decisionId).count()); i++) {
      await page.waitForTimeout(250);
      await page.reload();
      await page.getByTestId('deploy-address').waitFor();
    }
    await records.getByText(ids.decisionId).waitFor();
    const chart = page.getByTestId('deploy-monitor-chart');
    await chart.locator('canvas').first().waitFor();
    await shot(page, 'deploy-detail-called');
    const row = records.locator('tr', { hasText: ids.decisionId });
    await row.getByRole('button').last().click();
    const payload = page.getByTestId('record-payload');
    await payload.waitFor();
    expect(await payload.textContent()).toContain('"reward": -0.5');
    await shot(page, 'deploy-record-payload');
    await page.keyboard.press('Escape');
  });

  it('turns the kept calls into a dataset of the project', async () => {
    await page.getByRole('button', { name: '由调用生成数据集' }).click();
    await page.locator('#records-dataset-name').fill('heating calls');
    await shot(page, 'deploy-records-dataset');
    await page.getByRole('button', { name: '生成数据集', exact: true }).click();
    await page.getByRole('button', { name: '打开数据集管理' }).waitFor();
    const list = await apiCall<{ rows: { name: string; amount: number; projectId: string | null }[] }>(page, 'table/list', { projectId: ids.projectId, page: 1, pageSize: 50 });
    const made = list.rows.find((r) => r.name === 'heating calls');
    expect(made).toBeTruthy();
    expect(made!.amount).toBe(1);
  });

  it('tries a decision from the service page (keyboard: Enter in a field) and finds it in the records', async () => {
    await page.goto(`/project/deploy-detail?projectId=${ids.projectId}&serviceId=${ids.serviceId}`);
    const trial = page.getByTestId('deploy-try');
    await trial.getByText('试算决策').waitFor();
    const first = trial.locator('input').first();
    await first.focus();
    await page.keyboard.press('Enter');
    const result = page.getByTestId('deploy-try-result');
    await result.waitFor();
    const caption = (await result.locator('caption').textContent()) ?? '';
    const trialId = /([0-9a-f]{32})/.exec(caption)?.[1];
    expect(trialId).toBeTruthy();
    expect(trialId).not.toBe(ids.decisionId);
    const values = await result.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) for (const n of v.split(',')) expect(Number.isFinite(Number(n))).toBe(true);
    await shot(page, 'deploy-try-decision');
    // recorded like a call at the access address (the records are written in batches)
    const records = page.getByTestId('deploy-records');
    for (let i = 0; i < 40 && !(await records.getByText(trialId!).count()); i++) {
      await page.waitForTimeout(250);
      await page.reload();
      await page.getByTestId('deploy-address').waitFor();
    }
    await records.getByText(trialId!).waitFor();
  });
});
