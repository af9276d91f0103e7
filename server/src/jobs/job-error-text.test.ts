/**
 * A failed job keeps a learning error (e.g. a reward that returned NaN, with the rows and node
 * values named) in the language its user chose, else in both languages.
 */
import { describe, expect, it } from 'vitest';
import { LearningError } from '@decisio/learning';
import { DEFAULT_TENANT_ID } from '../db/ids';
import { databases } from '../test/server';
import { JobKindRegistry, JobState } from './queue';
import { jobErrorText } from './runner';
import { waitForState } from './testing';
import { useInProcessQueues } from './testing-in-process';

const nonFinite = () => new LearningError('reward.nonFinite', { function: 'get_reward', count: 1, total: 4, rows: '2', results: 'nan', values: '#2: next_obs=[1.5]' });

describe('jobErrorText', () => {
  it('keeps a learning error in the chosen language, else in English and Chinese; other errors as they are', () => {
    const e = nonFinite();
    expect(jobErrorText(e).split('\n')).toEqual([e.message, e.localized('zh-CN')]);
    expect(jobErrorText(e, 'zh-CN')).toBe(e.localized('zh-CN'));
    expect(jobErrorText(e, 'zh-CN')).toContain('出错的行：2');
    expect(jobErrorText(e, 'en-US')).toBe(e.message);
    expect(jobErrorText(e, 'en-US')).toContain('rows 2');
    expect(jobErrorText(new Error('plain'), 'zh-CN')).toBe('plain');
    expect(jobErrorText('text')).toBe('text');
  });
});

describe.each(databases)('a failed job on %s', (kind) => {
  const registry = () => {
    const kinds = new JobKindRegistry();
    kinds.registerJobKind({
      kind: 'test.nonFinite',
      async run() {
        throw nonFinite();
      },
    });
    return kinds;
  };
  const { t, open } = useInProcessQueues(kind, registry);
  const tenant = { tenantId: DEFAULT_TENANT_ID };

  async function userWith(id: string, settings: unknown): Promise<void> {
    const now = new Date();
    await t().db.knex('users').insert({
      id,
      tenant_id: tenant.tenantId,
      username: `u_${id.slice(0, 8)}`,
      nickname: null,
      email: `${id.slice(0, 8)}@example.com`,
      mobile: null,
      password_hash: 'x',
      occupation: 'other',
      is_student: false,
      status: 'enabled',
      settings: settings === null ? null : JSON.stringify(settings),
      created_at: now,
      updated_at: now,
    });
  }

  it("keeps the error in the language of the job's user, both languages without one", async () => {
    const zhUser = '1'.repeat(32);
    const noLanguage = '2'.repeat(32);
    await userWith(zhUser, { language: 'zh-CN', theme: null, emailNotifications: false });
    await userWith(noLanguage, null);
    const q = await open();
    const a = await q.enqueue('test.nonFinite', {}, { ...tenant, userId: zhUser, name: 'zh' });
    const b = await q.enqueue('test.nonFinite', {}, { ...tenant, userId: noLanguage, name: 'none' });
    const failedA = await waitForState(() => q.get(a.id, tenant), JobState.failure);
    const failedB = await waitForState(() => q.get(b.id, tenant), JobState.failure);
    expect(failedA.error).toBe(nonFinite().localized('zh-CN'));
    expect(failedB.error).toBe(`${nonFinite().message}\n${nonFinite().localized('zh-CN')}`);
    expect(await t().store.userLanguage(zhUser)).toBe('zh-CN');
    expect(await t().store.userLanguage(null)).toBeNull();
  });
});
