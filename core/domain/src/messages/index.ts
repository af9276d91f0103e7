import { z } from 'zod';
import { pageRequestSchema } from '../admin/schemas';

/**
 * Messages of the user centre (spec platform §2 `/user-center/message`): what the product tells
 * one user (a training ended or failed, a licence expires, a ticket was answered, a project was
 * shared). A message is stored as its kind and parameters; the client words it in the user's
 * language, so a message written in Chinese reads in English after a language switch.
 */

/** What a message is about. */
export const MESSAGE_KINDS = [
  'trainingEnded',
  'trainingFailed',
  'licenceExpiring',
  'licenceExpired',
  'licenceReviewed',
  'serviceReviewed',
  'ticketAnswered',
  'projectShared',
  /** A policy update from recorded calls ended (`policies.update`): swapped, kept, skipped or failed. */
  'policyUpdated',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Parameters of a message (names, ids, counts) for its wording and its link. */
export type MessageParams = Record<string, string | number | boolean | null>;

/** One message as listed. */
export interface MessageItem {
  id: string;
  kind: MessageKind;
  params: MessageParams;
  /** ISO time the message was written. */
  createdAt: string;
  /** ISO time it was read, `null` while unread. */
  readAt: string | null;
}

/** `message/getMessageList`: a page of the caller's messages, newest first. */
export const messageListRequestSchema = pageRequestSchema.extend({
  /** Only unread ones. */
  unread: z.boolean().optional(),
});
export type MessageListRequest = z.input<typeof messageListRequestSchema>;

/** `message/readMessage` / `message/deleteMessage`: some messages, or all of the caller's with `all`. */
export const messageIdsRequestSchema = z
  .object({
    ids: z.array(z.string().regex(/^[0-9a-f]{32}$/)).min(1).max(100).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((v) => (v.ids ? !v.all : v.all === true), { message: 'validation.invalid', path: ['ids'] });
export type MessageIdsRequest = z.input<typeof messageIdsRequestSchema>;

/** `message/getUnreadCount` reply. */
export interface UnreadCountResponse {
  unread: number;
}
