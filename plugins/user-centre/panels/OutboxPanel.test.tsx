import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { userCentrePlugin } from '../index';

const panel = userCentrePlugin.panels.find((p) => p.id === 'user-centre.outbox')!;

describe('OutboxPanel', () => {
  afterEach(() => cleanup());

  it('lists the messages with their state and says when no transport is configured', async () => {
    const h = createTestHost({ plugins: [userCentrePlugin], locale: 'en-US' });
    h.mockCall('outbox/getOutboxList', {
      data: {
        rows: [{ id: 'm1', channel: 'email', recipient: 'a@example.com', purpose: 'signUp', subject: 'Your verification code', body: 'Your verification code to sign up is ABC123.', status: 'logged', error: null, createdAt: '2026-11-27T01:00:00Z', sentAt: null }],
        total: 1, page: 1, pageSize: 20, transports: { email: null, sms: 'http' },
      },
    });
    await renderPanel(panel, { host: h });
    const rows = await screen.findAllByTestId('outbox-row');
    expect(rows[0]!.textContent).toContain('ABC123');
    expect(rows[0]!.textContent).toContain('Logged only');
    expect(screen.getByTestId('outbox-transports').textContent).toBe('E-mail: not configured (development mode) · SMS: http');
  });

  it('shows the empty state', async () => {
    const h = createTestHost({ plugins: [userCentrePlugin], locale: 'zh-CN' });
    h.mockCall('outbox/getOutboxList', { data: { rows: [], total: 0, page: 1, pageSize: 20, transports: { email: 'smtp', sms: null } } });
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('暂无消息')).toBeTruthy();
  });

  it('names the channel in the language of the page', async () => {
    const row = { recipient: 'a@example.com', purpose: 'signUp', subject: 'Code', body: 'Code ABC123.', status: 'sent', error: null, createdAt: '2026-11-27T01:00:00Z', sentAt: null };
    for (const [locale, names] of [['zh-CN', ['邮件', '短信']], ['en-US', ['E-mail', 'SMS']]] as const) {
      const h = createTestHost({ plugins: [userCentrePlugin], locale });
      h.mockCall('outbox/getOutboxList', {
        data: { rows: [{ ...row, id: 'm1', channel: 'email' }, { ...row, id: 'm2', channel: 'sms' }], total: 2, page: 1, pageSize: 20, transports: { email: 'smtp', sms: 'http' } },
      });
      await renderPanel(panel, { host: h });
      const rows = await screen.findAllByTestId('outbox-row');
      expect(rows.map((r) => r.querySelectorAll('td')[2]!.textContent)).toEqual(names);
      cleanup();
    }
  });
});
