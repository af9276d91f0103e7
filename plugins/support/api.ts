/** Support calls (spec platform §7 "Tickets"): endpoints `support/<verb>` on the base api. */
import type { ContactItem, ContactListRequest, ContactRequest, CreateWorkOrderRequest, HandleContactRequest, Page, ReplyWorkOrderRequest, WorkOrderItem, WorkOrderListRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const LIST = { type: 'WorkOrder' as const, id: 'LIST' };
const CONTACTS = { type: 'Contact' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const supportEndpoints = (build: PluginEndpointBuilder) => ({
  'support/list': build.query<Page<WorkOrderItem>, WorkOrderListRequest>({ query: (body) => ({ url: 'workOrder/getFeedBackWorkOrderList', body }), providesTags: [LIST] }),
  'support/create': build.mutation<WorkOrderItem, CreateWorkOrderRequest>({ query: (body) => ({ url: 'workOrder/createFeedBackWorkOrder', body }), invalidatesTags: [LIST] }),
  'support/delete': build.mutation<{ id: string }, { id: string }>({ query: (body) => ({ url: 'workOrder/deleteFeedBackWorkOrder', body }), invalidatesTags: [LIST] }),
  'support/reply': build.mutation<WorkOrderItem, ReplyWorkOrderRequest>({ query: (body) => ({ url: 'workOrder/replyFeedBackWorkOrder', body }), invalidatesTags: [LIST] }),
  'support/contact': build.mutation<{ id: string }, ContactRequest>({ query: (body) => ({ url: 'workOrder/createContact', body }) }),
  'support/contacts': build.query<Page<ContactItem>, ContactListRequest>({ query: (body) => ({ url: 'contact/getContactList', body }), providesTags: [CONTACTS] }),
  'support/handleContact': build.mutation<ContactItem, HandleContactRequest>({ query: (body) => ({ url: 'contact/handleContact', body }), invalidatesTags: [CONTACTS] }),
});

/** Cache tags of this plugin. */
export const SUPPORT_TAG_TYPES = ['WorkOrder', 'Contact'] as const;

/** The support api with typed hooks. */
export const supportApi = definePluginApi('support', supportEndpoints, { tagTypes: SUPPORT_TAG_TYPES });
