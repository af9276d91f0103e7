import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCode, type WorkOrderItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { supportPlugin } from '../index';
import { ContactPanel } from './ContactPanel';

const panel = supportPlugin.panels.find((p) => p.id === 'support.tickets')!;
const open: WorkOrderItem = { id: 'a'.repeat(32), type: 'bug', email: 'me@example.com', mobile: null, description: 'Chart empty', status: 'submitted', reply: null, createdAt: '2026-11-27T08:00:00.000Z', repliedAt: null, username: 'ann' };
const answered: WorkOrderItem = { ...open, id: 'b'.repeat(32), status: 'replied', reply: 'Fixed', repliedAt: '2026-11-27T09:00:00.000Z' };
const me = (permissions: string[]) => ({ data: { userId: 'u', username: 'ann', nickname: null, tenantId: 't', permissions, menus: [], roleList: [], isSystemRole: false, isStudent: false, isOperation: false } });

function host(locale: 'en-US' | 'zh-CN', rows: WorkOrderItem[], permissions: string[] = []) {
  const h = createTestHost({ plugins: [supportPlugin], locale, session: { token: 't', userId: 'u' } });
  h.mockCall('user/getUser', me(permissions));
  h.mockCall('workOrder/getFeedBackWorkOrderList', { data: { rows, total: rows.length, page: 1, pageSize: 20 } });
  h.mockCall('workOrder/createFeedBackWorkOrder', { data: open });
  h.mockCall('workOrder/replyFeedBackWorkOrder', { data: answered });
  h.mockCall('workOrder/createContact', { data: { id: 'c' } });
  return h;
}

describe('TicketsPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No tickets'], ['zh-CN', '没有工单']] as const) {
      await renderPanel(panel, { host: host(locale, []) });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists the user\'s tickets with their answers and files a new one with a contact method', async () => {
    const h = host('en-US', [open, answered]);
    await renderPanel(panel, { host: h });
    const rows = await screen.findAllByTestId('ticket-row');
    expect(rows.map((r) => within(r).getByTestId('ticket-answer').textContent)).toEqual(['Not answered yet', 'Answer: Fixed']);
    expect(screen.queryByTestId('tickets-all')).toBeNull();

    fireEvent.click(screen.getByTestId('tickets-create'));
    fireEvent.change(await screen.findByTestId('ticket-description'), { target: { value: 'Login slow' } });
    fireEvent.click(screen.getByTestId('ticket-submit'));
    // No e-mail and no mobile: refused in the form, nothing sent.
    expect(await screen.findAllByText('At least one of e-mail and mobile')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'workOrder/createFeedBackWorkOrder')).toBe(false);
    fireEvent.change(screen.getByTestId('ticket-email'), { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByTestId('ticket-submit'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'workOrder/createFeedBackWorkOrder')?.body).toEqual({ type: 'question', email: 'me@example.com', mobile: '', description: 'Login slow' }));
  });

  it('opens the new-ticket dialog with the focus on its first field, and the delete confirmation on Cancel', async () => {
    await renderPanel(panel, { host: host('en-US', [open], ['support:write']) });
    fireEvent.click(await screen.findByTestId('tickets-create'));
    // Once the dialog has opened, its type field has the focus (not Blueprint's empty focus trap).
    const type = await screen.findByTestId('ticket-type');
    await waitFor(() => expect(document.activeElement).toBe(type));
    fireEvent.keyDown(type, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('ticket-type')).toBeNull());
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alertdialog');
    await waitFor(() => expect(document.activeElement).toBe(within(alert).getByRole('button', { name: 'Cancel' })));
  });

  it('lets an administrator switch to every ticket and answer one', async () => {
    const h = host('en-US', [open], ['support:write']);
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('tickets-all'));
    await waitFor(() => expect(h.calls.filter((c) => c.url === 'workOrder/getFeedBackWorkOrderList').at(-1)?.body).toMatchObject({ scope: 'all' }));
    fireEvent.click(await screen.findByTestId('ticket-reply'));
    fireEvent.change(await screen.findByTestId('reply-text'), { target: { value: 'Fixed' } });
    fireEvent.click(screen.getByTestId('reply-send'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'workOrder/replyFeedBackWorkOrder')?.body).toEqual({ id: open.id, reply: 'Fixed' }));
    expect(h.toasts.some((n) => n.message === 'Answer sent; the user was told')).toBe(true);
  });
});

describe('ContactPanel', () => {
  afterEach(() => cleanup());

  it('needs a contact method, sends the form and thanks the sender, in both languages', async () => {
    const h = host('en-US', []);
    await renderPanel(ContactPanel, { host: h });
    fireEvent.change(screen.getByTestId('contact-name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByTestId('contact-content'), { target: { value: 'A demo please' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    expect((await screen.findAllByText('Give an e-mail or a mobile number')).length).toBe(2);
    fireEvent.change(screen.getByTestId('contact-email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    expect(await screen.findByTestId('contact-sent')).toBeTruthy();
    expect(h.calls.find((c) => c.url === 'workOrder/createContact')?.body).toEqual({ name: 'Ada', company: '', email: 'ada@example.com', mobile: '', content: 'A demo please' });
    cleanup();

    const zh = host('zh-CN', []);
    zh.mockCall('workOrder/createContact', { code: ErrorCode.tooManyRequests, message: '请求过于频繁' });
    await renderPanel(ContactPanel, { host: zh });
    expect(screen.getByText('联系我们')).toBeTruthy();
    fireEvent.change(screen.getByTestId('contact-name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByTestId('contact-content'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('contact-email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    expect(await screen.findByText('请求过于频繁')).toBeTruthy();
  });
});
