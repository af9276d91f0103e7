/**
 * The root layout's overlay area: the plugins' overlay contributions (`overlays` of a manifest)
 * whose `when` holds, each loaded with `import()` the first time it shows, rendered in the
 * workbench's own tree (store, services, i18n, theme), then the workbench's generic guide note
 * where `guide` is on and no contributed guide overlay (`kind: 'guide'`) applies.
 */
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useAppLocation, useLocale, useSession, useTheme, type OverlayContribution, type WhenContext } from '@decisio/sdk-plugin';
import { GuideOverlay } from '../guards/GuideOverlay';
import type { Owned } from '../host/plugin-host';
import { useWorkbench } from '../host/workbench-context';

const lazyCache = new WeakMap<OverlayContribution, ComponentType>();
function lazyOverlay(c: OverlayContribution): ComponentType {
  let C = lazyCache.get(c);
  if (!C) {
    C = lazy(() => c.load().then((comp) => ({ default: comp })));
    lazyCache.set(c, C);
  }
  return C;
}

/** An overlay that fails to load or to render disappears instead of taking the page down. */
class OverlayErrorBoundary extends Component<{ id: string; children?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(`overlay "${this.props.id}" failed`, error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function applies(o: Owned<OverlayContribution>, ctx: WhenContext): boolean {
  if (!o.when) return true;
  try {
    return o.when(ctx);
  } catch (e) {
    console.error(`overlay "${o.id}": when failed`, e);
    return false;
  }
}

/** Contributed overlays that apply now, then the generic guide note unless a guide overlay applies. */
export function OverlayArea() {
  const wb = useWorkbench();
  // Re-evaluate `when` on every navigation and session, locale or theme change.
  useAppLocation();
  useSession();
  useLocale();
  useTheme();
  const ctx = wb.whenContext();
  const shown = wb.host.overlays.filter((o) => applies(o, ctx));
  return (
    <>
      {shown.map((o) => {
        const Lazy = lazyOverlay(o);
        return (
          <div key={o.id} className="dc-overlay" data-overlay={o.id}>
            <OverlayErrorBoundary id={o.id}>
              <Suspense fallback={null}>
                <Lazy />
              </Suspense>
            </OverlayErrorBoundary>
          </div>
        );
      })}
      {!shown.some((o) => o.kind === 'guide') && <GuideOverlay />}
    </>
  );
}
