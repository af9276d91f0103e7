/**
 * {@link NavigationService} over the TanStack router. Query parameters are plain strings
 * (the router is configured with {@link parseSearch}/{@link stringifySearch}).
 */
import type { AnyRouter } from '@tanstack/react-router';
import { Emitter, type AppLocation, type NavigationService } from '@decisio/sdk-plugin';

/** Parses `?a=1&b=x` into string values (no JSON coercion: ids stay strings). */
export function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search));
}

/** Serialises string values back; `undefined`/empty values are dropped. */
export function stringifySearch(search: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

function clean(search: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(search ?? {})) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

/** Navigation through a router set after construction (the router is built from plugin routes). */
export class RouterNavigationService implements NavigationService {
  private router: AnyRouter | undefined;
  private readonly didNavigate = new Emitter<AppLocation>();
  readonly onDidNavigate = this.didNavigate.event;
  private unsubscribe: (() => void) | undefined;

  /** Attaches the router; fires `onDidNavigate` after each resolved navigation. */
  attach(router: AnyRouter): void {
    this.unsubscribe?.();
    this.router = router;
    this.unsubscribe = router.subscribe('onResolved', () => this.didNavigate.fire(this.getLocation()));
  }

  getLocation(): AppLocation {
    const l = this.router?.state.location;
    if (!l) {
      const w = typeof window !== 'undefined' ? window.location : undefined;
      return { pathname: w?.pathname ?? '/', search: parseSearch(w?.search ?? '') };
    }
    return { pathname: l.pathname, search: clean(l.search as Record<string, string>) };
  }

  navigate(to: string, options?: { search?: Record<string, string | undefined>; replace?: boolean }): void {
    if (!this.router) throw new Error('navigation before the router is attached');
    void this.router.navigate({ to, search: clean(options?.search) as never, replace: options?.replace });
  }

  /**
   * Navigates without asking about unsaved edits (the guard of `useUnsavedChangesGuard`): for the
   * workbench's own moves when the session ended or must change its password, where nothing on
   * the page could be saved any more.
   */
  leave(to: string, options?: { replace?: boolean }): void {
    if (!this.router) throw new Error('navigation before the router is attached');
    void this.router.navigate({ to, replace: options?.replace, ignoreBlocker: true });
  }

  href(to: string, search?: Record<string, string | undefined>): string {
    if (!this.router) return `${to}${stringifySearch(clean(search))}`;
    return this.router.buildLocation({ to, search: clean(search) as never }).href;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.didNavigate.dispose();
  }
}
