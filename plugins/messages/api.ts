/** Message calls (issue 18): endpoints `messages/<verb>` on the base api. */
import type { MessageIdsRequest, MessageItem, MessageListRequest, Page, UnreadCountResponse } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const LIST = { type: 'Message' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const messagesEndpoints = (build: PluginEndpointBuilder) => ({
  'messages/list': build.query<Page<MessageItem>, MessageListRequest>({ query: (body) => ({ url: 'message/getMessageList', body }), providesTags: [LIST] }),
  'messages/unread': build.query<UnreadCountResponse, void>({ query: () => ({ url: 'message/getUnreadCount', body: {} }), providesTags: [LIST] }),
  'messages/read': build.mutation<{ changed: number }, MessageIdsRequest>({ query: (body) => ({ url: 'message/readMessage', body }), invalidatesTags: [LIST] }),
  'messages/delete': build.mutation<{ deleted: number }, MessageIdsRequest>({ query: (body) => ({ url: 'message/deleteMessage', body }), invalidatesTags: [LIST] }),
});

/** Cache tags of this plugin. */
export const MESSAGES_TAG_TYPES = ['Message'] as const;

/** The messages api with typed hooks. */
export const messagesApi = definePluginApi('messages', messagesEndpoints, { tagTypes: MESSAGES_TAG_TYPES });
