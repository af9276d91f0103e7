import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MessageItem } from '@decisio/domain';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { messagesPlugin } from '../index';
import { MessagesBell } from './MessagesBell';

const panel = messagesPlugin.panels.find((p) => p.id === 'messages.list')!;
const ticket: MessageItem = { id: 'a'.repeat(32), kind: 'ticketAnswered', params: { workOrderId: 'w', type: 'bug', excerpt: 'Chart empty' }, createdAt: '2026-11-27T08:00:00.000Z', readAt: null };
const shared: MessageItem = { id: 'b'.repeat(32), kind: 'projectShared', params: { projectName: 'Cold room', by: 'ann', permission: 'view' }, createdAt: '2026-11-26T08:00:00.000Z', readAt: '2026-11-26T09:00:00.000Z' };

function host(locale: 'en-US' | 'zh-CN', rows: MessageItem[]) {
  const h = createTestHost({ plugins: [messagesPlugin], locale, session: { token: 't', userId: 'u' } });
  h.mockCall('message/getMessageList', { data: { rows, total: rows.length, page: 1, pageSize: 20 } });
  h.mockCall('message/getUnreadCount', { data: { unread: rows.filter((r) => !r.readAt).length } });
  h.mockCall('message/readMessage', { data: { changed: 1 } });
  h.mockCall('message/deleteMessage', { data: { deleted: 1 } });
  return h;
}

describe('MessagesPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No messages'], ['zh-CN', '没有消息']] as const) {
      await renderPanel(panel, { host: host(locale, []) });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('words messages in the reader\'s language; opening one marks it read and follows its link', async () => {
    const h = host('en-US', [ticket, shared]);
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('Your ticket "Chart empty" was answered')).toBeTruthy();
    expect(screen.getByText('ann shared the project "Cold room" with you (view)')).toBeTruthy();
    const rows = screen.getAllByTestId('message-row');
    expect(rows.map((r) => r.getAttribute('data-read'))).toEqual(['false', 'true']);
    fireEvent.click(screen.getAllByTestId('message-open')[0]!);
    await waitFor(() => expect(h.navigations.at(-1)?.pathname).toBe('/support'));
    expect(h.calls.find((c) => c.url === 'message/readMessage')?.body).toEqual({ ids: [ticket.id] });

    fireEvent.click(screen.getByTestId('messages-read-all'));
    await waitFor(() => expect(h.calls.filter((c) => c.url === 'message/readMessage').at(-1)?.body).toEqual({ all: true }));
    cleanup();
    await renderPanel(panel, { host: host('zh-CN', [ticket]) });
    expect(await screen.findByText('你的工单“Chart empty”已有回复')).toBeTruthy();
  });

  it('deletes a message after confirming', async () => {
    const h = host('en-US', [ticket]);
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(h.calls.some((c) => c.url === 'message/deleteMessage')).toBe(false);
    expect(await screen.findByText('Delete this message?')).toBeTruthy();
    const buttons = await screen.findAllByRole('button', { name: 'Delete' });
    fireEvent.click(buttons.at(-1)!);
    await waitFor(() => expect(h.calls.some((c) => c.url === 'message/deleteMessage')).toBe(true));
    expect(h.calls.find((c) => c.url === 'message/deleteMessage')?.body).toEqual({ ids: [ticket.id] });
  });

  it('after a delete, puts the focus on the next message, else the previous one, else the empty state', async () => {
    const third: MessageItem = { ...shared, id: 'c'.repeat(32), createdAt: '2026-11-25T08:00:00.000Z' };
    let rows = [ticket, shared, third];
    const h = host('en-US', rows);
    h.mockCall('message/getMessageList', () => ({ data: { rows, total: rows.length, page: 1, pageSize: 20 } }));
    h.mockCall('message/deleteMessage', (body) => {
      const ids = (body as { ids?: string[] }).ids;
      rows = ids ? rows.filter((r) => !ids.includes(r.id)) : [];
      return { data: { deleted: 1 } };
    });
    await renderPanel(panel, { host: h });
    const remove = async (index: number) => {
      const row = (await screen.findAllByTestId('message-row'))[index]!;
      fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
      await screen.findByText('Delete this message?');
      fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    };
    const focusedId = () => document.activeElement?.getAttribute('data-message-id');
    await remove(1); // the middle one: the next takes the focus
    await waitFor(() => expect(focusedId()).toBe(third.id));
    await remove(1); // the last one: the previous takes it
    await waitFor(() => expect(focusedId()).toBe(ticket.id));
    await remove(0); // the only one: the empty state takes it
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('messages-empty')));
  });

  it('after a delete that the list shows once the confirmation has gone, puts the focus on the next message', async () => {
    const third: MessageItem = { ...shared, id: 'c'.repeat(32), createdAt: '2026-11-25T08:00:00.000Z' };
    let rows = [ticket, shared, third];
    const gate = heldBack();
    const h = host('en-US', rows);
    h.mockCall('message/getMessageList', () => ({ data: { rows, total: rows.length, page: 1, pageSize: 20 } }));
    h.mockCall('message/deleteMessage', async (body) => {
      await gate.wait;
      const ids = (body as { ids: string[] }).ids;
      rows = rows.filter((r) => !ids.includes(r.id));
      return { data: { deleted: 1 } };
    });
    await renderPanel(panel, { host: h });
    const row = (await screen.findAllByTestId('message-row'))[1]!;
    const button = within(row).getByRole('button', { name: 'Delete' });
    // A browser focuses a clicked button (jsdom does not: done here).
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    // The confirmation has faded and given the focus back to the row's button, still there.
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(button);
    gate.release();
    await waitFor(() => expect(document.activeElement?.getAttribute('data-message-id')).toBe(third.id));
  });

  it('shows the unread count on the bell and opens the messages', async () => {
    const h = host('en-US', [ticket, shared]);
    await renderPanel(MessagesBell, { host: h });
    expect((await screen.findByTestId('messages-unread')).textContent).toBe('1');
    expect(screen.getByRole('button', { name: 'Messages, 1 unread' })).toBeTruthy();
    fireEvent.click(screen.getByTestId('messages-bell'));
    expect(h.navigations.at(-1)?.pathname).toBe('/user-center/message');
  });
});
