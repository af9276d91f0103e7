import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';
import enSdk from '../i18n/en-US.json';
import zhSdk from '../i18n/zh-CN.json';

const PROJECT = 'p'.repeat(32);
const SOLUTION = 'a'.repeat(32);
const project = (right: 'view' | 'edit' | 'owner') => ({ data: { projectId: PROJECT, name: 'P', locked: false, right, ownerId: 'u0', ownerName: 'Owner' } });
const row = (id: string, name: string, state: string) => ({ id, code: `P-${id.slice(0, 8)}`, name, state, progress: 0.5, durationMs: 1000, jobId: 'j'.repeat(32), algorithm: 'ppo', reward: 1, createdAt: '2026-11-23T10:00:00.000Z' });
const ROWS = { data: { rows: [row('b'.repeat(32), 'running one', 'processing'), row('d'.repeat(32), 'failed one', 'failure')], total: 2 } };

function host(locale: 'en-US' | 'zh-CN', right: 'view' | 'edit' | 'owner') {
  const h = createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/policy', search: { projectId: PROJECT, solutionId: SOLUTION } } });
  h.mockCall('project/getProject', project(right));
  h.mockCall('trainPolicy/list', ROWS);
  return h;
}

/** The buttons that change the project: new, stop, restore, copy, delete. */
const changes = (en: boolean) => [
  ...screen.getAllByTestId('modelling-new'),
  ...(['Stop', 'Restore', 'Copy', 'Delete'] as const).flatMap((w) => screen.getAllByRole('button', { name: en ? w : ({ Stop: '停止', Restore: '恢复', Copy: '复制', Delete: '删除' } as const)[w] })),
];

describe('trainings screens and the project right', () => {
  afterEach(() => cleanup());

  it('a view collaborator gets new, stop, restore, copy and delete disabled, saying why (both languages); the /train form does not open', async () => {
    for (const [locale, reason] of [['en-US', enSdk.projectRight.viewOnly], ['zh-CN', zhSdk.projectRight.viewOnly]] as const) {
      const h = host(locale, 'view');
      await renderPanel(screenOf('policy', true), { host: h });
      await screen.findByText('failed one');
      await waitFor(() => expect((screen.getAllByTestId('modelling-new')[0] as HTMLButtonElement).disabled).toBe(true));
      const buttons = changes(locale === 'en-US');
      expect(buttons.length).toBeGreaterThanOrEqual(6);
      for (const b of buttons) {
        expect((b as HTMLButtonElement).disabled).toBe(true);
        expect(b.getAttribute('title')).toBe(reason);
      }
      expect(screen.queryByTestId('train-submit')).toBeNull();
      // Looking stays: the detail of a record.
      expect((screen.getAllByRole('button', { name: locale === 'en-US' ? 'Detail' : '详情' })[0] as HTMLButtonElement).disabled).toBe(false);
      cleanup();
    }
  });

  it('an edit collaborator (and the owner) may use them', async () => {
    for (const right of ['edit', 'owner'] as const) {
      const h = host('en-US', right);
      await renderPanel(screenOf('policy'), { host: h });
      await screen.findByText('failed one');
      await waitFor(() => expect(h.calls.some((c) => c.url === 'project/getProject')).toBe(true));
      await new Promise((r) => setTimeout(r, 20));
      for (const b of changes(true)) {
        expect((b as HTMLButtonElement).disabled).toBe(false);
        expect(b.getAttribute('title')).toBeNull();
      }
      cleanup();
    }
  });
});
