import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCode, type ContactItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { supportPlugin } from '../index';

const panel = supportPlugin.panels.find((p) => p.id === 'support.contacts')!;
const entry: ContactItem = {
  id: 'a'.repeat(32),
  name: 'Ann Li',
  company: 'Grid Co',
  email: 'ann@example.com',
  mobile: null,
  content: 'Pump control pilot',
  createdAt: '2026-11-27T08:00:00.000Z',
  handledAt: null,
  handledBy: null,
  handledNote: null,
};
const done: ContactItem = { ...entry, id: 'b'.repeat(32), name: 'Bo Wang', handledAt: '2026-11-27T09:00:00.000Z', handledBy: 'root', handledNote: 'Called back' };
const me = (permissions: string[]) => ({ data: { userId: 'u', username: 'root', nickname: null, tenantId: 't', permissions, menus: [], roleList: [], isSystemRole: false, isStudent: false, isOperation: false } });

function host(locale: 'en-US' | 'zh-CN', rows: ContactItem[], permissions: string[]) {
  const h = createTestHost({ plugins: [supportPlugin], locale, session: { token: 't', userId: 'u' } });
  h.mockCall('user/getUser', me(permissions));
  h.mockCall('contact/getContactList', { data: { rows, total: rows.length, page: 1, pageSize: 20 } });
  h.mockCall('contact/handleContact', { data: { ...entry, handledAt: '2026-11-27T10:00:00.000Z', handledBy: 'root', handledNote: 'Sent prices' } });
  return h;
}

describe('ContactsAdminPanel', () => {
  afterEach(() => cleanup());

  it('says so without contacts:read and asks nothing of the server', async () => {
    for (const [locale, text] of [['en-US', 'You have no right to open this page'], ['zh-CN', '你没有访问此页面的权限']] as const) {
      const h = host(locale, [entry], ['support:write']);
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(text)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'contact/getContactList')).toBe(false);
      cleanup();
    }
  });

  it('shows the empty state in both languages, open entries first asked', async () => {
    for (const [locale, title] of [['en-US', 'No contact message matches'], ['zh-CN', '没有符合条件的联系留言']] as const) {
      const h = host(locale, [], ['contacts:read']);
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(h.calls.find((c) => c.url === 'contact/getContactList')?.body).toEqual({ page: 1, pageSize: 20, handled: false });
      cleanup();
    }
  });

  it('lists entries with their state, filters and searches, and marks one handled with a note', async () => {
    const h = host('en-US', [entry, done], ['contacts:read', 'contacts:write']);
    await renderPanel(panel, { host: h });
    const rows = await screen.findAllByTestId('contact-row');
    expect(rows.map((r) => r.getAttribute('data-handled'))).toEqual(['no', 'yes']);
    expect(within(rows[0]!).getByText('ann@example.com').getAttribute('href')).toBe('mailto:ann@example.com');
    expect(within(rows[1]!).getByTestId('contact-state').textContent).toContain('Called back');
    // Only the open one offers the action.
    expect(within(rows[1]!).queryByTestId('contact-handle')).toBeNull();

    fireEvent.change(screen.getByTestId('contacts-filter'), { target: { value: 'all' } });
    fireEvent.change(screen.getByTestId('contacts-search'), { target: { value: ' grid ' } });
    fireEvent.submit(screen.getByTestId('contacts-search').closest('form')!);
    await waitFor(() => expect(h.calls.filter((c) => c.url === 'contact/getContactList').at(-1)?.body).toEqual({ page: 1, pageSize: 20, keyword: 'grid' }));

    fireEvent.click(within((await screen.findAllByTestId('contact-row'))[0]!).getByTestId('contact-handle'));
    fireEvent.change(await screen.findByTestId('contact-note'), { target: { value: 'Sent prices' } });
    fireEvent.click(screen.getByTestId('contact-handle-confirm'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'contact/handleContact')?.body).toEqual({ id: entry.id, note: 'Sent prices' }));
    await waitFor(() => expect(h.toasts.some((n) => n.message === 'Marked handled')).toBe(true));
  });

  it('shows the server\'s refusal in the dialog, and offers no action without contacts:write', async () => {
    const h = host('zh-CN', [entry], ['contacts:read', 'contacts:write']);
    h.mockCall('contact/handleContact', { code: ErrorCode.contactRequestHandled, message: '该联系留言已标记为已处理' });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('contact-handle'));
    fireEvent.click(await screen.findByTestId('contact-handle-confirm'));
    expect((await screen.findByTestId('contact-handle-error')).textContent).toBe('该联系留言已标记为已处理');
    cleanup();
    await renderPanel(panel, { host: host('en-US', [entry], ['contacts:read']) });
    await screen.findAllByTestId('contact-row');
    expect(screen.queryByTestId('contact-handle')).toBeNull();
  });

  it('shows a load failure with a retry', async () => {
    const h = host('en-US', [], ['contacts:read']);
    h.mockCall('contact/getContactList', { code: ErrorCode.internalError, message: 'Internal server error' });
    await renderPanel(panel, { host: h });
    expect((await screen.findByTestId('contacts-error')).textContent).toContain('Contact messages could not be loaded');
  });
});
