/**
 * The modelling flow in real Chromium against the real server (issue 8, e2e): a new user signs
 * up and in, creates a project and a solution from scratch, uploads a small csv of a control
 * task (x' = 0.9 x + 0.5 a, generated here), sets up the data access, builds the decision graph
 * on the React Flow canvas by dragging fields from the palette and connecting handles (and, in a
 * second solution, from a REVIVE YAML), processes a scheme, trains a BC environment while the
 * curve grows, writes a reward in Monaco and tries it on sample data, trains a tiny PPO policy,
 * runs a simulation and a decision deduction and reads their scores, and walks a debug-mode
 * training through the debug page. Screenshots of every screen go to `e2e/artifacts/flow-*`.
 *
 * Training is kept tiny (a few epochs, 16 hidden units) for the 2-core CI machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { apiCall, newUser, signUpAndIn } from '../fixtures/account';
import { checkControl, launchBrowser, reportPageErrors, shot } from '../fixtures/browser';
import { TINY_YAML } from '../../server/src/modules/modelling/testing';

const baseUrl = inject('baseUrl');
const stamp = Date.now().toString(36);
const user = newUser('e2ef');

let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;
const files = { csv: '', yaml: '' };
const ids = { projectId: '', solutionId: '', yamlSolutionId: '' };

const TINY_BC = '{"epochs": 300, "hidden": [16], "updatesPerStep": 4, "batchSize": 32, "evalEvery": 100}';
const TINY_PPO = '{"epochs": 2, "bcUpdates": 5, "batchSize": 8, "horizon": 4, "evalWindows": 8, "hidden": [16]}';
const REWARD = `import numpy as np

def get_reward(data):
    # stay close to zero
    x = np.asarray(data['next_x'])[:, :1]
    return -np.abs(x)
`;
const BROKEN_REWARD = `import numpy as np

def get_reward(data):
    return np.asarray(data['no_such_node'])
`;

/** A POST call of the api from the signed-in page. */
const call = <T>(url: string, body: unknown): Promise<T> => apiCall<T>(page, url, body);

/** Screenshot in the current theme, then in the other one, then back. */
async function shotBoth(name: string): Promise<void> {
  const toggle = page.getByTestId('theme-switch');
  const first = (await toggle.getAttribute('data-theme')) ?? 'light';
  await shot(page, `flow-${name}-${first}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).not.toBe(first);
  await shot(page, `flow-${name}-${first === 'light' ? 'dark' : 'light'}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).toBe(first);
}

/** Opens a workflow page of the solution (the links carry projectId and solutionId). */
async function open(route: string, solutionId = ids.solutionId): Promise<void> {
  await page.goto(`${route}?projectId=${ids.projectId}&solutionId=${solutionId}`);
}

/** Waits for a training row to reach a final state; returns it. */
async function finished(row: Locator, ms: number): Promise<string> {
  await expect.poll(async () => (await row.getByTestId('state-tag').textContent()) ?? '', { timeout: ms, interval: 1000 }).toMatch(/成功|失败|Successful|Failure/);
  return (await row.getByTestId('state-tag').textContent()) ?? '';
}

/** A control task: x' = 0.9 x + 0.5 a with a noisy proportional controller, 8 trajectories of 20 steps. */
function controlCsv(): string {
  const lines = ['traj,step,time,x,a'];
  let seed = 11;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let t = 0; t < 8; t++) {
    let x = rnd() * 3 - 1.5;
    const g = 0.3 + 0.5 * rnd();
    for (let k = 0; k < 20; k++) {
      const a = Math.max(-1, Math.min(1, -g * x + 0.1 * (rnd() - 0.5)));
      lines.push(`${t},${k},2026-01-01T00:${String(k).padStart(2, '0')}:00Z,${x.toFixed(5)},${a.toFixed(5)}`);
      x = 0.9 * x + 0.5 * a;
    }
  }
  return lines.join('\n') + '\n';
}

/** Drags `source` (HTML5 drag and drop) onto the canvas at a point relative to its box. */
async function dropOnCanvas(source: Locator, x: number, y: number): Promise<void> {
  await source.dragTo(page.getByTestId('pattern-canvas').locator('.react-flow__pane'), { targetPosition: { x, y } });
}

/** Connects the source handle of one node to the target handle of another by dragging the mouse. */
async function connect(from: string, to: string): Promise<void> {
  const s = page.locator(`.react-flow__node:has([data-testid="pattern-node-${from}"]) .react-flow__handle.source`);
  const t = page.locator(`.react-flow__node:has([data-testid="pattern-node-${to}"]) .react-flow__handle.target`);
  const a = (await s.boundingBox())!;
  const b = (await t.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2 + 20, { steps: 8 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Selects a node on the canvas, opens its editing, applies `edit`, finishes editing. */
async function editNode(name: string, edit: () => Promise<void>): Promise<void> {
  await page.getByTestId(`pattern-node-${name}`).click();
  await page.getByTestId('pattern-edit').click();
  await edit();
  await page.getByTestId('pattern-finish-edit').click();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-e2e-flow-'));
  files.csv = path.join(dir, 'control_task.csv');
  files.yaml = path.join(dir, 'control.yaml');
  fs.writeFileSync(files.csv, controlCsv());
  fs.writeFileSync(files.yaml, TINY_YAML);
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  page = await context.newPage();
  reportPageErrors(page);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shot(page, `flow-failed-${ctx.task.name.slice(0, 40)}`).catch(() => undefined);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('flow: from a csv to trained models and deductions', () => {
  it('signs a new user up and in, and creates a project and a solution from scratch', async () => {
    await signUpAndIn(page, user, 'Flow');

    await page.goto('/all-project');
    await page.getByTestId('projects-empty').waitFor();
    await page.getByTestId('projects-create').click();
    await page.getByTestId('project-name').fill(`flow ${stamp}`.slice(0, 20));
    await shot(page, 'flow-project-create');
    await page.getByTestId('project-submit').click();
    const row = page.locator('[data-testid^="project-row-"]').first();
    await row.waitFor();
    ids.projectId = ((await row.getAttribute('data-testid')) ?? '').slice('project-row-'.length);
    await row.locator('.dc-projects-row-name').click();
    await page.waitForURL(new RegExp(`projectId=${ids.projectId}`));
    for (const name of ['control', 'control yaml']) {
      await page.getByTestId('solutions-create').click();
      await page.getByTestId('solution-name').fill(name);
      await page.getByTestId('solution-submit').click();
      await page.getByTestId('solution-form').waitFor({ state: 'detached' });
    }
    const rows = page.locator('[data-testid^="solution-row-"]');
    await expect.poll(() => rows.count()).toBe(2);
    const rowOf = (name: string) => rows.filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });
    const idOf = async (name: string) => ((await rowOf(name).getAttribute('data-testid')) ?? '').slice('solution-row-'.length);
    ids.solutionId = await idOf('control');
    ids.yamlSolutionId = await idOf('control yaml');
    expect(ids.solutionId).toBeTruthy();
    expect(ids.yamlSolutionId).toBeTruthy();
    expect(ids.solutionId).not.toBe(ids.yamlSolutionId);
    await shotBoth('projects');
    // The solution opens its workflow (the project workbench with the steps).
    await rowOf('control').getByTestId('solution-open').click();
    await page.waitForURL(/\/project\/workbench/);
    await page.getByTestId('workflow-workbench').waitFor();
    expect(page.url()).toContain(`solutionId=${ids.solutionId}`);
    await shotBoth('workbench-empty');
  });

  it('uploads the csv of the control task and sets up the data access', async () => {
    await page.goto('/dataset-manage');
    await page.getByTestId('datasets-upload').click();
    await page.getByTestId('upload-file').setInputFiles(files.csv);
    await page.getByTestId('upload-preview').waitFor({ timeout: 90_000 });
    await page.getByTestId('upload-start').click();
    await page.getByTestId('dataset-preview').waitFor({ timeout: 90_000 });
    await shot(page, 'flow-dataset');
    await page.keyboard.press('Escape');
    const list = await call<{ rows: { tableId: string; name: string }[] }>('table/list', { page: 1, pageSize: 20 });
    const table = list.rows.find((d) => d.name === 'control_task')!;
    expect(table).toBeTruthy();

    for (const sid of [ids.solutionId, ids.yamlSolutionId]) {
      await open('/workflow/table-correlation', sid);
      await page.getByTestId('corr-table-0').selectOption(table.tableId);
      await page.getByTestId('corr-trajectory').selectOption('traj');
      await page.getByTestId('corr-sequence').selectOption('step');
      await page.getByTestId('corr-datetime').selectOption('time');
      await page.getByTestId('corr-save').click();
      await page.getByText('数据接入已保存').waitFor();
    }
    await shot(page, 'flow-data-access');
  });

  it('builds the decision graph by dragging fields onto the canvas and connecting handles', async () => {
    await open('/workflow/pattern');
    await page.getByTestId('pattern-editor').waitFor();
    await page.getByTestId('pattern-column-x').waitFor({ timeout: 30_000 });
    await page.locator('.react-flow__pane').waitFor();
    await shotBoth('pattern-empty');
    // x: a state node; a: made the agent; next_x: the environment's transition of x.
    await dropOnCanvas(page.getByTestId('pattern-column-x'), 120, 140);
    await page.getByTestId('pattern-node-x').waitFor();
    await dropOnCanvas(page.getByTestId('pattern-column-a'), 420, 80);
    await page.getByTestId('pattern-node-a').waitFor();
    await editNode('a', async () => void (await page.getByTestId('pattern-node-role').selectOption('agent')));
    await page.getByTestId('pattern-add-node').click();
    await page.getByTestId('pattern-add-environment').click();
    // A node added from the toolbar appears in the middle of the visible canvas, named after its role.
    await page.getByTestId('pattern-node-env_1').waitFor();
    await editNode('env_1', async () => {
      await page.getByTestId('pattern-node-name').fill('next_x');
      await page.getByTestId('pattern-node-name').press('Enter');
    });
    await page.getByTestId('pattern-node-next_x').waitFor();
    // Move next_x away from the others so that every handle is free to grab.
    const box = (await page.getByTestId('pattern-node-next_x').boundingBox())!;
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(pane.x + pane.width - 160, pane.y + 300, { steps: 10 });
    await page.mouse.up();

    await connect('x', 'a');
    await connect('x', 'next_x');
    await connect('a', 'next_x');
    await shot(page, 'flow-pattern-connected');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    await expect.poll(() => page.getByTestId('pattern-issue-count').textContent()).toMatch(/没有问题|No problems/);
    await shotBoth('pattern-built');
    await page.getByTestId('pattern-save').click();
    await expect.poll(() => page.getByTestId('pattern-dirty').textContent()).toMatch(/已保存|Saved/);
    const stored = await call<{ graph: { nodes: { name: string; role: string }[]; edges: unknown[] } }>('solution/getPattern', { solutionId: ids.solutionId });
    expect(stored.graph.nodes.map((n) => `${n.name}:${n.role}`).sort()).toEqual(['a:agent', 'next_x:environment', 'x:state']);
    expect(stored.graph.edges).toHaveLength(3);
  });

  it('builds the decision graph of the second solution from a REVIVE YAML', async () => {
    await open('/workflow/pattern', ids.yamlSolutionId);
    await page.getByTestId('pattern-editor').waitFor();
    await page.getByTestId('pattern-yaml').click();
    await page.getByTestId('pattern-yaml-input').setInputFiles(files.yaml);
    await shot(page, 'flow-pattern-yaml-dialog');
    await page.getByTestId('pattern-yaml-build').click();
    for (const n of ['obs', 'action', 'next_obs']) await page.getByTestId(`pattern-node-${n}`).waitFor();
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    // As the dragged graph above: Save once the checks have run on the built graph (a save before
    // refuses with a toast; seen once in the clean-clone CI, the state staying "unsaved").
    await expect.poll(() => page.getByTestId('pattern-issue-count').textContent()).toMatch(/没有问题|No problems/);
    await page.getByTestId('pattern-save').click();
    await expect.poll(() => page.getByTestId('pattern-dirty').textContent()).toMatch(/已保存|Saved/);
    await shot(page, 'flow-pattern-yaml-built');
    const stored = await call<{ graph: { nodes: { name: string; role: string; fields: { name: string }[] }[] } }>('solution/getPattern', { solutionId: ids.yamlSolutionId });
    expect(stored.graph.nodes.find((n) => n.name === 'action')).toMatchObject({ role: 'agent', fields: [{ name: 'a' }] });
  });

  it('processes a scheme and trains a BC environment while its curve grows', async () => {
    await open('/workflow/scheme');
    await page.getByTestId('modelling-scheme').waitFor();
    await shotBoth('scheme-empty');
    await page.getByTestId('modelling-new').first().click();
    await page.locator('#scheme-name').fill('scheme one');
    await page.locator('#scheme-start').fill('2026-01-01');
    await page.locator('#scheme-end').fill('2026-02-01');
    await shot(page, 'flow-scheme-form');
    await page.getByTestId('scheme-submit').click();
    const scheme = page.getByTestId('scheme-row').first();
    await scheme.waitFor();
    await scheme.getByTestId('scheme-process').click();
    await expect.poll(() => scheme.getByTestId('state-tag').textContent(), { timeout: 90_000 }).toMatch(/已完成|Completed/);
    await shot(page, 'flow-scheme-processed');

    await open('/workflow/simulator/train');
    await page.getByTestId('train-form').waitFor();
    await page.getByTestId('train-name').fill('env bc');
    await page.getByTestId('train-scheme').selectOption({ label: 'scheme one' });
    await page.getByTestId('train-hyper').fill(TINY_BC);
    await shot(page, 'flow-environment-form');
    await page.getByTestId('train-submit').click();
    await page.getByTestId('train-form').waitFor({ state: 'detached' });
    const row = page.getByTestId('training-row').filter({ hasText: 'env bc' });
    await row.click();
    const chart = page.getByTestId('training-detail').getByTestId('modelling-curves').first();
    // Watch the curve: the number of measured points drawn grows while the training runs.
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const n = Number((await chart.getAttribute('data-points').catch(() => null)) ?? 0);
          if (seen[seen.length - 1] !== n) seen.push(n);
          if (seen.length === 2) await shotBoth('environment-training');
          return seen.filter((v) => v > 0).length;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);
    expect(Math.max(...seen)).toBeGreaterThan(1);
    expect(await finished(row, 120_000)).toMatch(/成功|Successful/);
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThan(1);
    // The list row and the detail poll on their own: the detail shows the score once it has read the finished record.
    await expect.poll(async () => Number(await page.getByTestId('training-score').textContent()), { timeout: 30_000 }).not.toBeNaN();
    await page.getByTestId('modelling-rollout').locator('[data-testid="modelling-curves"][data-points]').first().waitFor({ timeout: 30_000 });
    await shotBoth('environment-done');
  }, 300_000);

  it('writes a reward in Monaco and tries it on sample data', async () => {
    await open('/workflow/objective');
    await page.getByTestId('modelling-reward').waitFor();
    await shotBoth('reward-empty');
    await page.getByTestId('modelling-new').first().click();
    await page.getByTestId('reward-name').fill('stay near zero');
    const editor = page.getByTestId('reward-editor').locator('.monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    // Python highlighting: Monaco tokenised the template (keyword `def`).
    await expect.poll(() => editor.locator('.view-line span[class*="mtk"]').count()).toBeGreaterThan(1);
    // Typed line by line as a person would: Enter keeps the indentation of the line above, so
    // only the change of indentation is typed (spaces in, Backspace out by a tab stop of 4).
    const typeCode = async (code: string) => {
      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      let indent = 0;
      for (const [i, line] of code.trimEnd().split('\n').entries()) {
        if (i > 0) await page.keyboard.press('Enter');
        if (!line.trim()) continue;
        const want = line.length - line.trimStart().length;
        for (let k = want; k < indent; k += 4) await page.keyboard.press('Backspace');
        await page.keyboard.insertText(' '.repeat(Math.max(0, want - indent)) + line.trimStart());
        indent = want;
      }
    };
    await typeCode(BROKEN_REWARD);
    await page.getByTestId('reward-try').click();
    const err = page.getByTestId('reward-try-error');
    await err.waitFor({ timeout: 60_000 });
    expect(await err.getAttribute('data-line')).toBe('4');
    await shot(page, 'flow-reward-try-error');
    await typeCode(REWARD);
    await page.getByTestId('reward-try').click();
    const summary = page.getByTestId('reward-try-summary');
    await summary.waitFor({ timeout: 60_000 }).catch(async (e: unknown) => {
      await shot(page, 'flow-reward-try-failed');
      throw new Error(`no reward distribution; the page says: ${await page.getByTestId('reward-editor').textContent()}`, { cause: e });
    });
    expect(Number(await summary.getAttribute('data-count'))).toBeGreaterThan(0);
    expect(Number(await summary.getAttribute('data-max'))).toBeLessThanOrEqual(0);
    await page.getByTestId('reward-try-histogram').waitFor();
    await shotBoth('reward-tried');
    await page.getByTestId('reward-save').click();
    await page.getByRole('menuitem', { name: /stay near zero/ }).waitFor();
    const list = await call<{ rows: { id: string; name: string }[] }>('objective/list', { solutionId: ids.solutionId });
    const stored = await call<{ files: Record<string, string> }>('objective/detail', { id: list.rows.find((r) => r.name === 'stay near zero')!.id });
    expect(stored.files['reward.py']).toBe(REWARD.trimEnd());
  });

  it('trains a tiny PPO policy and reads its final reward', async () => {
    await open('/workflow/policy/train');
    await page.getByTestId('train-form').waitFor();
    await page.getByTestId('train-name').fill('policy ppo');
    await page.getByTestId('train-simulator').selectOption({ label: 'env bc' });
    await page.getByTestId('train-objective').selectOption({ label: 'stay near zero' });
    // a setting the chosen algorithm refuses (SAC's select tolerance tests the members' mean, not the worst member):
    // the server's paramInvalid names it under the hyperparameters field, the form stays open and nothing is created
    await page.getByTestId('train-algorithm').selectOption('sac');
    await page.getByTestId('train-hyper').fill('{"select": "worst", "selectTolerance": 1}');
    await page.getByTestId('train-submit').click();
    await page.getByTestId('train-form').getByText(/^selectTolerance: /).waitFor();
    await shot(page, 'flow-policy-form-refused');
    expect((await call<{ total: number }>('trainPolicy/list', { solutionId: ids.solutionId })).total).toBe(0);
    await page.getByTestId('train-algorithm').selectOption('ppo');
    await page.getByTestId('train-hyper').fill(TINY_PPO);
    await shot(page, 'flow-policy-form');
    await page.getByTestId('train-submit').click();
    await page.getByTestId('train-form').waitFor({ state: 'detached' });
    const row = page.getByTestId('training-row').filter({ hasText: 'policy ppo' });
    expect(await finished(row, 180_000)).toMatch(/成功|Successful/);
    await row.click();
    await expect.poll(async () => Number(await page.getByTestId('training-score').textContent())).not.toBeNaN();
    await shotBoth('policy-done');
  }, 240_000);

  it('runs a simulation and a decision deduction and reads their scores and charts', async () => {
    for (const [route, kind, name] of [
      ['/workflow/simulator/simulation', 'simulation', 'sim one'],
      ['/workflow/policy/decision', 'decision', 'decision one'],
    ] as const) {
      await open(route);
      await page.getByTestId(`modelling-${kind}`).waitFor();
      await shotBoth(`${kind}-empty`);
      await page.getByTestId('modelling-new').first().click();
      await page.getByTestId('deduction-name').fill(name);
      await page.getByTestId('deduction-simulatorId').selectOption({ label: 'env bc' });
      if (kind === 'decision') await page.getByTestId('deduction-policyId').selectOption({ label: 'policy ppo' });
      await page.getByTestId('deduction-objectiveId').selectOption({ label: 'stay near zero' });
      await page.getByTestId('deduction-step').fill('10');
      await shot(page, `flow-${kind}-form`);
      await page.getByTestId('deduction-submit').click();
      const row = page.getByTestId('training-row').filter({ hasText: name });
      expect(await finished(row, 120_000)).toMatch(/成功|Successful/);
      await row.click();
      const score = page.getByTestId('training-score');
      await expect.poll(async () => Number(await score.textContent())).not.toBeNaN();
      const charts = page.getByTestId('deduction-charts');
      await charts.locator('[data-testid="modelling-curves"][data-points]').first().waitFor({ timeout: 30_000 });
      expect(Number(await charts.locator('[data-testid="modelling-curves"]').first().getAttribute('data-points'))).toBeGreaterThan(1);
      if (kind === 'decision') await page.getByTestId('deduction-reward').waitFor();
      await shotBoth(`${kind}-detail`);
    }
  }, 300_000);

  it('pauses a debug-mode training on the debug page, skips a breakpoint and stops it', async () => {
    await open('/workflow/simulator/train');
    await page.getByTestId('train-form').waitFor();
    await page.getByTestId('train-name').fill('env debug');
    await page.getByTestId('train-scheme').selectOption({ label: 'scheme one' });
    await page.getByTestId('train-hyper').fill('{"epochs": 6, "hidden": [16], "updatesPerStep": 2, "batchSize": 32}');
    await checkControl(page.getByTestId('train-debug'));
    await page.getByTestId('train-submit').click();
    await page.getByTestId('train-form').waitFor({ state: 'detached' });
    const row = page.getByTestId('training-row').filter({ hasText: 'env debug' });
    await expect.poll(() => row.getByTestId('state-tag').textContent(), { timeout: 90_000 }).toMatch(/调试中|Debugging/);
    await row.getByTestId('training-debug').click();
    await page.waitForURL(/\/workflow\/debug/);
    const bp = page.getByTestId('debug-breakpoints').locator('li');
    await expect.poll(() => bp.count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('debug-metrics').waitFor();
    await shotBoth('debug');
    await page.getByTestId('debug-skip').click();
    await expect.poll(() => bp.count(), { timeout: 60_000 }).toBe(2);
    await page.getByTestId('debug-stop').click();
    await expect.poll(() => page.getByTestId('debug-state').textContent(), { timeout: 60_000 }).toMatch(/手动停止|Stopped manually/);
    await shot(page, 'flow-debug-stopped');
  }, 180_000);

  it('shows the project log with every training of the project', async () => {
    await page.goto(`/project/project-log?projectId=${ids.projectId}&solutionId=${ids.solutionId}`);
    const rows = page.getByTestId('project-log-row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    await expect.poll(() => page.getByTestId('project-log').textContent()).toContain('policy ppo');
    await shotBoth('project-log');
  });
});
