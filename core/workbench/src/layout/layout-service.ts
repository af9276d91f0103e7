/**
 * {@link LayoutService}: forwards to the dock layout mounted for the current route.
 */
import { Emitter, type LayoutService } from '@decisio/sdk-plugin';
import type { DockController } from './DockLayout';

/** Layout service whose controller is set by the mounted {@link DockController}. */
export class LayoutServiceImpl implements LayoutService {
  private controller: DockController | null = null;
  private readonly didChange = new Emitter<void>();
  readonly onDidLayoutChange = this.didChange.event;
  private readonly didChangeAvailability = new Emitter<boolean>();
  /** Fires when the current route gains or loses a dock layout. */
  readonly onDidChangeAvailability = this.didChangeAvailability.event;

  /** Called by the dock layout on mount (controller) and unmount (`null`). */
  setController(c: DockController | null): void {
    const had = this.controller !== null;
    this.controller = c;
    if (had !== (c !== null)) this.didChangeAvailability.fire(c !== null);
  }

  /** Called by the dock layout after each change. */
  notifyChange(): void {
    this.didChange.fire();
  }

  /** `true` when the current route shows a dock layout. */
  get hasLayout(): boolean {
    return this.controller !== null;
  }

  openPanel(panelId: string, options?: { params?: Record<string, unknown>; floating?: boolean }): void {
    if (!this.controller) throw new Error('the current route has no dock layout');
    this.controller.openPanel(panelId, options);
  }

  resetLayout(): void {
    this.controller?.reset();
  }
}
