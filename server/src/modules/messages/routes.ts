import type { Router } from '@koa/router';
import { z } from 'zod';
import { messageIdsRequestSchema, messageListRequestSchema, type UnreadCountResponse } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { MessagesService } from './service';

/**
 * Messages of the user centre: `message/getMessageList`, `message/getUnreadCount`,
 * `message/readMessage`, `message/deleteMessage`. Every signed-in user reaches only their own
 * messages (another user's id answers `messageNotFound`).
 */
export function messagesRoutes(router: Router<AppState>, kit: RouteKit, { messages }: { messages: MessagesService }): void {
  const list = kit.validate(messageListRequestSchema);
  const none = kit.validate(z.object({}).strict());
  const ids = kit.validate(messageIdsRequestSchema);
  const me = (ctx: AppContext) => ctx.state.user!.id;

  router.post('/message/getMessageList', kit.auth, kit.tenant, list, reply(async (ctx) => messages.list(me(ctx), list.input(ctx))));
  router.post(
    '/message/getUnreadCount',
    kit.auth,
    kit.tenant,
    none,
    reply(async (ctx): Promise<UnreadCountResponse> => ({ unread: await messages.unreadCount(me(ctx)) })),
  );
  router.post('/message/readMessage', kit.auth, kit.tenant, ids, kit.transaction, reply(async (ctx) => ({ changed: await messages.markRead(me(ctx), ids.input(ctx)) })));
  router.post('/message/deleteMessage', kit.auth, kit.tenant, ids, kit.transaction, reply(async (ctx) => ({ deleted: await messages.remove(me(ctx), ids.input(ctx)) })));
}
