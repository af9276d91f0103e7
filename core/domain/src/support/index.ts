import { z } from 'zod';
import { emailSchema, mobileSchema } from '../account/schemas';
import { pageRequestSchema } from '../admin/schemas';

/**
 * Support (spec platform §3 "Ticket", §4, §5 "Contact form", §7 "Tickets"): a public contact-us
 * form and support tickets a signed-in user files and follows and an administrator answers.
 */

/** Kinds of ticket. */
export const WORK_ORDER_TYPES = ['question', 'bug', 'suggestion', 'account', 'licence', 'other'] as const;
export type WorkOrderType = (typeof WORK_ORDER_TYPES)[number];

/** Ticket states (spec platform §4): submitted, then replied. */
export const WORK_ORDER_STATUSES = ['submitted', 'replied'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/** Longest ticket description and answer, characters. */
export const SUPPORT_TEXT_MAX = 2000;

const optionalText = (max: number) => z.string().trim().max(max).optional().transform((v) => (v ? v : undefined));

/** `workOrder/createFeedBackWorkOrder`: at least one contact method (e-mail or mobile). */
export const createWorkOrderSchema = z
  .object({
    type: z.enum(WORK_ORDER_TYPES),
    email: z.union([emailSchema, z.literal('')]).optional(),
    mobile: z.union([mobileSchema, z.literal('')]).optional(),
    description: z.string().trim().min(1).max(SUPPORT_TEXT_MAX),
  })
  .strict();
export type CreateWorkOrderRequest = z.input<typeof createWorkOrderSchema>;

/** `workOrder/deleteFeedBackWorkOrder`. */
export const workOrderIdSchema = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }).strict();

/** `workOrder/getFeedBackWorkOrderList`: the caller's tickets; `scope: 'all'` (support:write) every ticket of the tenant. */
export const workOrderListSchema = pageRequestSchema.extend({
  status: z.enum(WORK_ORDER_STATUSES).optional(),
  scope: z.enum(['mine', 'all']).default('mine'),
});
export type WorkOrderListRequest = z.input<typeof workOrderListSchema>;

/** `workOrder/replyFeedBackWorkOrder` (administrators). */
export const replyWorkOrderSchema = z
  .object({ id: z.string().regex(/^[0-9a-f]{32}$/), reply: z.string().trim().min(1).max(SUPPORT_TEXT_MAX) })
  .strict();
export type ReplyWorkOrderRequest = z.input<typeof replyWorkOrderSchema>;

/** A ticket as listed. */
export interface WorkOrderItem {
  id: string;
  type: WorkOrderType;
  email: string | null;
  mobile: string | null;
  description: string;
  status: WorkOrderStatus;
  reply: string | null;
  /** Submit time, ISO. */
  createdAt: string;
  /** Reply time, ISO, or `null`. */
  repliedAt: string | null;
  /** Who filed it (username), for administrators' lists. */
  username: string;
}

/** `workOrder/createContact`: the public contact-us form. */
export const contactSchema = z
  .object({
    name: z.string().trim().min(1).max(50),
    company: optionalText(100),
    email: z.union([emailSchema, z.literal('')]).optional(),
    mobile: z.union([mobileSchema, z.literal('')]).optional(),
    content: z.string().trim().min(1).max(SUPPORT_TEXT_MAX),
  })
  .strict();
export type ContactRequest = z.input<typeof contactSchema>;

/** True when a form names at least one contact method (spec platform §5). */
export function hasContactMethod(v: { email?: string | undefined; mobile?: string | undefined }): boolean {
  return !!(v.email && v.email.length > 0) || !!(v.mobile && v.mobile.length > 0);
}

/**
 * Contact-form entries for administrators (`contact/getContactList`, permission `contacts:read`):
 * every entry of the platform (the form is public, so entries belong to no tenant), newest first;
 * `handled` filters by the handled mark, `keyword` searches name, company, e-mail, mobile and text.
 */
export const contactListSchema = pageRequestSchema
  .extend({
    handled: z.boolean().optional(),
    keyword: z.string().trim().max(100).optional(),
  })
  .strict();
export type ContactListRequest = z.input<typeof contactListSchema>;

/** `contact/handleContact` (`contacts:write`): marks an entry handled, with an optional note. */
export const handleContactSchema = z
  .object({ id: z.string().regex(/^[0-9a-f]{32}$/), note: z.string().trim().max(500).default('') })
  .strict();
export type HandleContactRequest = z.input<typeof handleContactSchema>;

/** A contact-form entry as administrators list it. */
export interface ContactItem {
  id: string;
  name: string;
  company: string | null;
  email: string | null;
  mobile: string | null;
  content: string;
  /** Sent, ISO. */
  createdAt: string;
  /** Marked handled, ISO, or `null`. */
  handledAt: string | null;
  /** Username of who marked it handled. */
  handledBy: string | null;
  handledNote: string | null;
}
