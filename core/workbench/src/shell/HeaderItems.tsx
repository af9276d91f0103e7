/**
 * The plugins' header items (`headerItems` of a manifest) whose `when` holds, in `order`, each
 * loaded with `import()` the first time it shows; one that fails to load or render disappears.
 */
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useAppLocation, useLocale, useSession, useTheme, type HeaderItemContribution, type WhenContext } from '@decisio/sdk-plugin';
import type { Owned } from '../host/plugin-host';
import { useWorkbench } from '../host/workbench-context';

const lazyCache = new WeakMap<HeaderItemContribution, ComponentType>();
function lazyItem(c: HeaderItemContribution): ComponentType {
  let C = lazyCache.get(c);
  if (!C) {
    C = lazy(() => c.load().then((comp) => ({ default: comp })));
    lazyCache.set(c, C);
  }
  return C;
}

class ItemErrorBoundary extends Component<{ id: string; children?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(`header item "${this.props.id}" failed`, error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function applies(o: Owned<HeaderItemContribution>, ctx: WhenContext): boolean {
  if (!o.when) return true;
  try {
    return o.when(ctx);
  } catch (e) {
    console.error(`header item "${o.id}": when failed`, e);
    return false;
  }
}

/** Contributed header items that apply now. */
export function HeaderItems() {
  const wb = useWorkbench();
  useAppLocation();
  useSession();
  useLocale();
  useTheme();
  const ctx = wb.whenContext();
  const shown = wb.host.headerItems.filter((o) => applies(o, ctx)).sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
  return (
    <>
      {shown.map((o) => {
        const Lazy = lazyItem(o);
        return (
          <span key={o.id} className="dc-header-item" data-header-item={o.id}>
            <ItemErrorBoundary id={o.id}>
              <Suspense fallback={null}>
                <Lazy />
              </Suspense>
            </ItemErrorBoundary>
          </span>
        );
      })}
    </>
  );
}
