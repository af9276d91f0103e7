/** The `account.signOut` command: tell the server, then drop the session and go to `/`. */
import { navigationServiceRef, notificationServiceRef, sessionServiceRef, localeServiceRef, type CommandRunContext } from '@decisio/sdk-plugin';
import { accountApi } from '../api';

/** Signs out; the local session is cleared even when the server call fails. */
export async function signOut(ctx: CommandRunContext): Promise<void> {
  const session = ctx.services.get(sessionServiceRef);
  try {
    const thunk = accountApi.endpoints['account/signOut'].initiate();
    const r = ctx.dispatch(thunk as never) as unknown as { unwrap(): Promise<unknown>; reset(): void };
    await r.unwrap().catch(() => undefined);
  } finally {
    session.clear();
    ctx.services.get(navigationServiceRef).navigate('/');
    ctx.services.get(notificationServiceRef).show({
      message: ctx.services.get(localeServiceRef).t('account:userMenu.signedOut'),
      intent: 'success',
      key: 'signed-out',
    });
  }
}
