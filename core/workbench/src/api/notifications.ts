/**
 * Toasts through Blueprint's `OverlayToaster`, shown 3 s (`LIMITS.notificationMs`).
 */
import { OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { LIMITS } from '@decisio/domain';
import type { Notification, NotificationService } from '@decisio/sdk-plugin';

let seq = 0;

/** {@link NotificationService} over one lazily created Blueprint toaster. */
export class ToastNotificationService implements NotificationService {
  private toaster: Promise<Toaster> | undefined;

  private get(): Promise<Toaster> {
    this.toaster ??= OverlayToaster.createAsync({ position: Position.TOP, maxToasts: 4, className: 'dc-toaster' });
    return this.toaster;
  }

  show(n: Notification): string {
    const key = n.key ?? `toast-${++seq}`;
    void this.get().then((t) =>
      t.show(
        {
          message: n.message,
          intent: n.intent ?? 'none',
          icon: n.icon as IconName | undefined,
          timeout: n.timeoutMs ?? LIMITS.notificationMs,
        },
        key,
      ),
    );
    return key;
  }

  dismiss(key: string): void {
    void this.get().then((t) => t.dismiss(key));
  }
}
