import type { Router } from '@koa/router';
import { contactListSchema, contactSchema, createWorkOrderSchema, handleContactSchema, replyWorkOrderSchema, workOrderIdSchema, workOrderListSchema, AppError } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { clientAddress } from '../../http/proxy';
import { grants } from '../access/service';
import type { SupportService } from './service';

/**
 * Support calls: `workOrder/createContact` (public contact-us form), and the tickets
 * `workOrder/createFeedBackWorkOrder`, `deleteFeedBackWorkOrder`, `getFeedBackWorkOrderList`
 * (own tickets; `scope: 'all'` needs `support:write`), `replyFeedBackWorkOrder` (`support:write`),
 * and the contact form's entries for administrators: `contact/getContactList` (`contacts:read`,
 * from the route table) and `contact/handleContact` (`contacts:write` on top).
 */
export function supportRoutes(router: Router<AppState>, kit: RouteKit, { support }: { support: SupportService }): void {
  const contact = kit.validate(contactSchema);
  const create = kit.validate(createWorkOrderSchema);
  const byId = kit.validate(workOrderIdSchema);
  const list = kit.validate(workOrderListSchema);
  const answer = kit.validate(replyWorkOrderSchema);
  const contacts = kit.validate(contactListSchema);
  const handle = kit.validate(handleContactSchema);
  const actor = (ctx: AppContext) => ({ id: ctx.state.user!.id, tenantId: ctx.state.tenantId! });

  router.post('/workOrder/createContact', contact, kit.transaction, reply(async (ctx) => support.contact(contact.input(ctx), clientAddress(ctx))));
  router.post('/workOrder/createFeedBackWorkOrder', kit.auth, kit.tenant, create, kit.transaction, reply(async (ctx) => support.create(actor(ctx), create.input(ctx))));
  router.post('/workOrder/deleteFeedBackWorkOrder', kit.auth, kit.tenant, byId, kit.transaction, reply(async (ctx) => support.remove(actor(ctx), byId.input(ctx).id)));
  router.post(
    '/workOrder/getFeedBackWorkOrderList',
    kit.auth,
    kit.tenant,
    list,
    reply(async (ctx) => {
      const input = list.input(ctx);
      if (input.scope === 'all' && !grants(ctx.state.user!.permissions, 'support:write')) throw new AppError('userNotPermission');
      return support.list(actor(ctx), input);
    }),
  );
  router.post(
    '/workOrder/replyFeedBackWorkOrder',
    kit.auth,
    kit.tenant,
    kit.requirePermission('support:write'),
    answer,
    kit.transaction,
    reply(async (ctx) => {
      const { id, reply: text } = answer.input(ctx);
      return support.reply(actor(ctx), id, text);
    }),
  );

  router.post('/contact/getContactList', kit.auth, kit.tenant, kit.requirePermission('contacts:read'), contacts, reply(async (ctx) => support.listContacts(contacts.input(ctx))));
  router.post(
    '/contact/handleContact',
    kit.auth,
    kit.tenant,
    kit.requirePermission('contacts:write'),
    handle,
    kit.transaction,
    reply(async (ctx) => {
      const { id, note } = handle.input(ctx);
      return support.handleContact(ctx.state.user!.id, id, note);
    }),
  );
}
