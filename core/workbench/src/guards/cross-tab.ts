/**
 * Reload when the signed-in user id kept in local storage changes in another tab
 * (spec platform §2): a sign-in or sign-out elsewhere must not leave this tab on stale data.
 */
import { USER_ID_STORAGE_KEY } from '@decisio/domain';
import { toDisposable, type Disposable } from '@decisio/sdk-plugin';

/** Listens for `storage` events on `userId`; calls `reload` when its value changed. */
export function watchUserIdInOtherTabs(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, reload: () => void): Disposable {
  const onStorage = (e: StorageEvent) => {
    if ((e.key === USER_ID_STORAGE_KEY || e.key === null) && e.oldValue !== e.newValue) reload();
  };
  target.addEventListener('storage', onStorage);
  return toDisposable(() => target.removeEventListener('storage', onStorage));
}
