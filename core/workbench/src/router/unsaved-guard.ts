/**
 * The navigation guard of unsaved edits: while a page has registered unsaved edits with the
 * SDK's {@link UnsavedChangesRegistry} (`useUnsavedChangesGuard`), every navigation of the
 * router's history (a link, the side menu, the palette, `navigate`, back and forward) waits for
 * the page's question and happens only when the user chose Leave.
 */
import type { RouterHistory } from '@tanstack/react-router';
import { toDisposable, type Disposable, type UnsavedChangesRegistry } from '@decisio/sdk-plugin';

/**
 * Blocks `history`'s navigations while `registry` has unsaved edits, until they are confirmed
 * (the blocker is only present while there are some, so a clean page navigates as before).
 * The browser's own `beforeunload` question is the page's (the hook's), not the router's.
 */
export function guardUnsavedChanges(history: RouterHistory, registry: UnsavedChangesRegistry): Disposable {
  let unblock: (() => void) | undefined;
  const sync = () => {
    if (registry.hasUnsavedChanges() && !unblock) {
      unblock = history.block({ blockerFn: async () => !(await registry.confirmLeave()), enableBeforeUnload: false });
    } else if (!registry.hasUnsavedChanges() && unblock) {
      unblock();
      unblock = undefined;
    }
  };
  sync();
  const changes = registry.onDidChange(sync);
  return toDisposable(() => {
    changes.dispose();
    unblock?.();
    unblock = undefined;
  });
}
