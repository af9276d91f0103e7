import { describe, expect, it } from 'vitest';
import { MESSAGE_KINDS, type MessageItem } from '@decisio/domain';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { wordingOf } from './wording';

const msg = (kind: MessageItem['kind'], params: MessageItem['params']): MessageItem => ({ id: 'a'.repeat(32), kind, params, createdAt: '2026-11-27T00:00:00.000Z', readAt: null });

describe('message wording', () => {
  it('words every kind with a key both languages have, and links it', () => {
    for (const kind of MESSAGE_KINDS) {
      const w = wordingOf(msg(kind, { approved: true }));
      const name = w.key.replace('kinds.', '') as keyof typeof enUS.kinds;
      expect(enUS.kinds[name], kind).toBeTypeOf('string');
      expect(zhCN.kinds[name], kind).toBeTypeOf('string');
      expect(w.key).not.toBe('kinds.unknown');
    }
  });

  it('passes the parameters the texts name', () => {
    expect(wordingOf(msg('licenceExpiring', { days: 3, edition: 'pro', licenceId: 'x' }))).toEqual({ key: 'kinds.licenceExpiring', params: { days: 3, edition: 'pro' }, to: '/sdk-licence' });
    expect(wordingOf(msg('licenceReviewed', { approved: false, edition: 'trial', opinion: null })).key).toBe('kinds.licenceRefused');
    expect(wordingOf(msg('projectShared', { projectName: 'P', by: 'ann', permission: 'edit' }))).toMatchObject({ params: { project: 'P', by: 'ann', permission: 'edit' }, to: '/all-project' });
    expect(wordingOf(msg('ticketAnswered', { excerpt: 'chart' })).to).toBe('/support');
    expect(wordingOf(msg('policyUpdated', { outcome: 'swapped', service: 'loop', policy: 'p_copy', scoreBefore: -1.234567, scoreAfter: -0.5, calls: 4 }))).toEqual({
      key: 'kinds.policyUpdated_swapped',
      params: { service: 'loop', policy: 'p_copy', before: -1.235, after: -0.5, calls: 4 },
      to: '/job',
    });
    for (const outcome of ['kept', 'skipped', 'failed']) {
      const key = wordingOf(msg('policyUpdated', { outcome, service: 'loop' })).key;
      expect(key).toBe(`kinds.policyUpdated_${outcome}`);
      expect(enUS.kinds[key.replace('kinds.', '') as keyof typeof enUS.kinds]).toBeTypeOf('string');
      expect(zhCN.kinds[key.replace('kinds.', '') as keyof typeof zhCN.kinds]).toBeTypeOf('string');
    }
  });
});
