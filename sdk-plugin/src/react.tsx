/**
 * React bindings of the SDK: the services context the workbench (or `createTestHost`)
 * provides, and hooks that plugins use in their panels.
 */
import { Component, createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert as BlueprintAlert, Dialog as BlueprintDialog, Button, Classes, mergeRefs, type AlertProps as BlueprintAlertProps, type ButtonProps, type DialogProps } from '@blueprintjs/core';
import type { Locale } from '@decisio/domain';
import type { Event } from './lifecycle';
import {
  localeServiceRef,
  navigationServiceRef,
  notificationServiceRef,
  sessionServiceRef,
  settingsServiceRef,
  themeServiceRef,
  type AppLocation,
  type Notification,
  type ServiceAccessor,
  type ServiceRef,
  type SessionState,
  type ThemeName,
} from './services';
import type { LeafKeys } from './locales';
import { baseApi } from './api';
import { isGuideOn, pickProjectLinkParams, projectLinkSearch, type ProjectLinkParams } from './project-link';

const ServicesContext = createContext<ServiceAccessor | null>(null);

/** Makes services available to `useService` below it. The workbench renders it at the root. */
export function ServicesProvider(props: { services: ServiceAccessor; children?: ReactNode }) {
  return <ServicesContext.Provider value={props.services}>{props.children}</ServicesContext.Provider>;
}

/**
 * The service accessor of the surrounding host.
 * @throws Error outside a {@link ServicesProvider}.
 */
export function useServices(): ServiceAccessor {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices() needs a <ServicesProvider> (render inside the workbench or renderPanel)');
  return s;
}

/** Reads a service by ref. @throws Error when nothing provides it. */
export function useService<T>(ref: ServiceRef<T>): T {
  return useServices().get(ref);
}

/** Reads an optional service by ref; `undefined` when absent. */
export function useOptionalService<T>(ref: ServiceRef<T>): T | undefined {
  return useServices().getOptional(ref);
}

/** Subscribes a component to an {@link Event}; re-renders with `read()` after each firing. */
export function useEventValue<T>(event: Event<unknown>, read: () => T): T {
  const subscribe = useCallback(
    (cb: () => void) => {
      const d = event(() => cb());
      return () => d.dispose();
    },
    [event],
  );
  return useSyncExternalStore(subscribe, read, read);
}

/** The current session (token, userId); re-renders on sign-in and sign-out. */
export function useSession(): SessionState {
  const s = useService(sessionServiceRef);
  const cache = useMemo(() => ({ key: '', value: s.getState() }), [s]);
  return useEventValue(s.onDidChange, () => {
    const v = s.getState();
    const key = `${v.token}|${v.userId}`;
    if (key !== cache.key) {
      cache.key = key;
      cache.value = v;
    }
    return cache.value;
  });
}

/** The interface language; re-renders when it changes. */
export function useLocale(): Locale {
  const l = useService(localeServiceRef);
  return useEventValue(l.onDidChangeLocale, () => l.getLocale());
}

/** The theme; re-renders when it changes. */
export function useTheme(): ThemeName {
  const t = useService(themeServiceRef);
  return useEventValue(t.onDidChangeTheme, () => t.getTheme());
}

/** The current app location; re-renders after each navigation. */
export function useAppLocation(): AppLocation {
  const n = useService(navigationServiceRef);
  const cache = useMemo(() => ({ key: '', value: n.getLocation() }), [n]);
  return useEventValue(n.onDidNavigate, () => {
    const v = n.getLocation();
    const key = `${v.pathname}?${JSON.stringify(v.search)}`;
    if (key !== cache.key) {
      cache.key = key;
      cache.value = v;
    }
    return cache.value;
  });
}

/** A function that goes to an app path: `navigate('/dashboard')`. */
export function useNavigate(): (to: string, options?: { search?: Record<string, string | undefined>; replace?: boolean }) => void {
  const n = useService(navigationServiceRef);
  return useCallback((to, options) => n.navigate(to, options), [n]);
}

/** A function that shows a toast. */
export function useNotify(): (n: Notification) => void {
  const s = useService(notificationServiceRef);
  return useCallback((n: Notification) => void s.show(n), [s]);
}

/** A typed translate function over a bundle `B`. */
export type TypedT<B> = (key: LeafKeys<B>, params?: Record<string, unknown>) => string;

/**
 * Makes a typed translation hook for a plugin namespace; keys are checked against the zh-CN
 * bundle type at compile time.
 *
 * @example
 * ```ts
 * import type zhCN from './locales/zh-CN.json';
 * export const useAccountT = createUseT<typeof zhCN>('account');
 * // in a component: const { t } = useAccountT(); t('signIn.title')
 * ```
 * `fallback`: namespaces read, in order, for a key the plugin's own bundle lacks (e.g. a plugin
 * built on the trainings kit passes `['trainings']` and types `B` as its bundle & the kit's).
 */
export function createUseT<B>(namespace: string, fallback: readonly string[] = []): () => { t: TypedT<B>; locale: Locale } {
  const namespaces = [namespace, ...fallback];
  return function usePluginT() {
    const { t, i18n } = useTranslation(fallback.length ? namespaces : namespace, fallback.length ? { nsMode: 'fallback' } : undefined);
    const typed = useCallback(
      (key: LeafKeys<B>, params?: Record<string, unknown>) => t(key as string, params as never) as unknown as string,
      [t],
    );
    return { t: typed, locale: (i18n.language === 'en-US' ? 'en-US' : 'zh-CN') as Locale };
  };
}

/**
 * The signed-in user from `user/getUser` (cached by the base api; skipped when signed out).
 * Returns RTK Query's result: `{data, isLoading, isError, error, refetch}`.
 */
export function useCurrentUser() {
  const session = useSession();
  return baseApi.endpoints['core/getUser'].useQuery(undefined, { skip: !session.token });
}

/**
 * Links between project pages that carry `guide`, `projectId`, `solutionId`, `schemeId`,
 * `simulatorId`, `objectiveId` and `policyId` (spec platform §2).
 *
 * @returns `params`: the carried values of the current location; `guide`: whether the demo
 *   guide is on; `href(path, overrides)`: an href; `go(path, overrides)`: navigate there.
 */
export function useProjectLink() {
  const location = useAppLocation();
  const nav = useService(navigationServiceRef);
  return useMemo(
    () => ({
      params: pickProjectLinkParams(location.search),
      guide: isGuideOn(location.search),
      search: (overrides?: ProjectLinkParams) => projectLinkSearch(location.search, overrides),
      href: (to: string, overrides?: ProjectLinkParams) => nav.href(to, projectLinkSearch(location.search, overrides)),
      go: (to: string, overrides?: ProjectLinkParams) => nav.navigate(to, { search: projectLinkSearch(location.search, overrides) }),
    }),
    [location, nav],
  );
}

/** The current value of a contributed setting; re-renders when it changes. */
export function useSetting<T>(id: string): T {
  const s = useService(settingsServiceRef);
  return useEventValue(s.onDidChangeSetting, () => s.get<T>(id));
}

/**
 * The key of a record's dialog (`<RecordDialog key={useOpeningKey(openedId)} id={openedId} />`,
 * open while the id is set): it changes each time a record opens (another one, or the same one
 * again), so the dialog starts afresh and never shows the previous record's data or unsaved edits;
 * it stays while the dialog closes (the id back to null), so Blueprint's close animation runs
 * instead of a remount dropping the dialog at once.
 */
export function useOpeningKey(id: string | null): string {
  const [seen, setSeen] = useState({ id, openings: id === null ? 0 : 1 });
  let openings = seen.openings;
  if (seen.id !== id) {
    if (id !== null) openings += 1;
    // Adjusted during render (React renders again before the children see the old key).
    setSeen({ id, openings });
  }
  return String(openings);
}

/** The focus is on the page (no control has it): where a disabled control, or one removed, leaves it. */
function focusOnPage(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Gives the focus back when a busy control is done. A busy Blueprint button (`loading`) is
 * disabled, and the browser drops its focus to the page, where a dialog no longer hears Escape or
 * Tab. `busy` is what is busy (`true`, or which of several, e.g. a field's name) or `null` /
 * `false`; when it ends and the focus is on the page, `target(whatWasBusy)` gets it back, unless
 * it is in a dialog that is closing (closed on success): Blueprint gives that one's focus back to
 * what opened it once it has faded, and a focused button there would take an Enter meanwhile.
 *
 * A busy button that gets the focus back itself is {@link BusyButton}: use it first. This hook is
 * for the other cases, where what gets the focus is not the busy button (a field to type in next,
 * the button that opened a confirmation, one of two buttons depending on the outcome).
 */
export function useFocusBackWhenDone<K>(busy: K | null | false, target: (was: K) => HTMLElement | null | undefined): void {
  const last = useRef<K | null>(null);
  const targetRef = useRef(target);
  targetRef.current = target;
  useEffect(() => {
    if (busy !== null && busy !== false) {
      last.current = busy;
      return;
    }
    const was = last.current;
    if (was === null) return;
    last.current = null;
    if (!focusOnPage()) return;
    const el = targetRef.current(was);
    if (el && !el.closest(`.${Classes.OVERLAY}:not(.${Classes.OVERLAY_OPEN})`)) el.focus();
  }, [busy]);
}

/**
 * Blueprint's `Button` (every prop, `ref` included) that keeps the focus through `loading`. A
 * busy button is disabled and the browser drops its focus to the page, where a dialog no longer
 * hears Escape or Tab; when `loading` ends and the focus is still on the page, this button takes
 * it back: the failed Save of a dialog that stays open has the focus again. Only when the focus
 * was on it, or in its dialog or form (a field's Enter), as it turned busy: a Refresh whose list
 * refreshes by itself (polling, after a change) does not take the focus from the page. It leaves
 * the focus where the user put it meanwhile, and leaves it to Blueprint in a dialog that is closing
 * (closed on success: Blueprint gives the focus back to what opened the dialog once it has faded).
 *
 * @example
 * ```tsx
 * <BusyButton type="submit" intent="primary" loading={saving.isLoading} text={t('save')} />
 * ```
 * Where the focus should go somewhere else than the busy button, see {@link useFocusBackWhenDone}.
 */
export function BusyButton({ ref, ...props }: ButtonProps) {
  const own = useRef<HTMLButtonElement>(null);
  const refs = useMemo(() => mergeRefs(own, ref), [ref]);
  const busy = props.loading === true;
  // Whether the user was at it when it turned busy: read by BusySnapshot just before the commit that
  // disables it (after that the browser may have dropped the focus already), never while rendering.
  const hadFocus = useRef(false);
  useFocusBackWhenDone(busy, () => (hadFocus.current ? own.current : null));
  return (
    <>
      <BusySnapshot busy={busy} button={own} hadFocus={hadFocus} />
      <Button {...props} ref={refs} />
    </>
  );
}

/**
 * The part of {@link BusyButton} that notes, as the button turns busy, whether the focus was near it
 * ({@link focusNear}). It reads the DOM in `getSnapshotBeforeUpdate`, which React calls in the commit
 * right before it changes the DOM (before the button is disabled and the browser drops its focus),
 * and only for a render that it commits: a render thrown away or committed later (a transition
 * that suspended) does not decide. Hooks have no such moment: a layout effect comes after the
 * change, and a read during render is not allowed (and may be stale by the commit).
 */
class BusySnapshot extends Component<{ busy: boolean; button: RefObject<HTMLElement | null>; hadFocus: RefObject<boolean> }> {
  override getSnapshotBeforeUpdate(prev: Readonly<{ busy: boolean }>): boolean | null {
    return this.props.busy && !prev.busy ? focusNear(this.props.button.current) : null;
  }
  override componentDidUpdate(_prev: unknown, _state: unknown, turnedBusy: boolean | null): void {
    if (turnedBusy !== null) this.props.hadFocus.current = turnedBusy;
  }
  override render(): null {
    return null;
  }
}

/**
 * Whether the focus is on `button`, or in the overlay (dialog, alert) or form it is in: a busy
 * button takes the focus back only then, not after a refresh nobody asked for (a list's polling)
 * while the focus was on the page or elsewhere.
 */
function focusNear(button: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!button || !active || active === document.body) return false;
  if (active === button) return true;
  const scope = button.closest(`.${Classes.OVERLAY}, form`);
  return scope !== null && scope.contains(active);
}

/** A dialog that calls {@link useFocusBackOnUnmount}: what had the focus when it first rendered, and the dialog that was up then. */
interface FocusBackDialog {
  opener: Element | null;
  /** When the opener is in a popover (a menu item): the targets of the click popovers open then (the menu's More button). */
  popoverTargets: Element[];
  previous: FocusBackDialog | undefined;
  mounted: boolean;
  /** Where the focus goes when the opener (and the popover's target) is gone or disabled: the caller's `fallback`, latest. */
  fallback: () => HTMLElement | null | undefined;
}

/** The dialogs calling {@link useFocusBackOnUnmount} that are up, oldest first (one leaves once its focus is settled). */
const focusBackDialogs: FocusBackDialog[] = [];

/** A Blueprint popover's target while it is open from a click (`Popover`, `PopoverNext`; hover popovers and tooltips set no `aria-expanded`). */
const OPEN_POPOVER_TARGET = `.${Classes.POPOVER_TARGET}.${Classes.POPOVER_OPEN}`;

/**
 * When `el` is in a Blueprint popover (a menu item): the controls that opened the click popovers
 * open now, the menu's More button among them. Nothing in the DOM leads from a popover's portal
 * back to its target, but the target is marked while the popover is open, and the dialog renders
 * before the click on the item has closed the menu.
 */
function openPopoverTargets(el: Element | null): Element[] {
  if (!el || !inPopover(el)) return [];
  return Array.from(document.querySelectorAll(OPEN_POPOVER_TARGET)).flatMap((t) => {
    const target = t.matches('[aria-expanded="true"]') ? t : t.querySelector('[aria-expanded="true"]');
    return target ? [target] : [];
  });
}

/** In a popover, or on its overlay's focus trap (what has the focus after a click on an item that a browser does not focus). */
function inPopover(el: Element): boolean {
  if (el.closest(`.${Classes.POPOVER}`)) return true;
  return el.closest(`.${Classes.OVERLAY}`)?.querySelector(`:scope > .${Classes.POPOVER_TRANSITION_CONTAINER}`) != null;
}

/** Connected, enabled, and not in an overlay that is closing (a menu item while its menu fades out). */
function canTakeFocus(el: Element | null): el is HTMLElement {
  return (
    el instanceof HTMLElement &&
    el !== document.body &&
    el.isConnected &&
    !el.matches(':disabled') &&
    !el.closest(`.${Classes.OVERLAY}:not(.${Classes.OVERLAY_OPEN})`)
  );
}

/**
 * `onClosed` of a Blueprint click popover menu (`PopoverNext`) whose items open dialogs, set with
 * `shouldReturnFocusOnClose={false}`: gives the focus back to `target` (the menu's button) once
 * the menu has faded, when the focus is still in the menu or on the page (Escape, an item that
 * navigates), not when a dialog opened from an item has it. Blueprint's own return comes 300 ms
 * after the click, and the dialog's focus trap then takes the focus from its field, with the keys
 * typed meanwhile. (Blueprint's "Escape always returns it" cannot be relied on once the prop is
 * false: the closing popover can keep the props it had while open, and in Chromium a menu opened
 * from the keyboard and closed with Escape left the focus on the page.) The dialog gives the focus
 * back to the button when it closes ({@link useFocusBackOnUnmount}).
 */
export function focusBackUnlessMoved(menu: HTMLElement, target: HTMLElement | null | undefined): void {
  // The popover's overlay: its focus traps are beside the menu's element.
  const popover = menu.closest(`.${Classes.OVERLAY}`) ?? menu;
  if (!focusOnPage() && !popover.contains(document.activeElement)) return;
  if (target?.isConnected && !target.matches(':disabled')) target.focus();
}

/**
 * What the focus goes back to: the dialog's opener, else (gone with its popover menu) the
 * popover's target, else (gone, disabled) the dialog's fallback, else the same for the dialog it
 * took over from.
 */
function focusBackTarget(dialog: FocusBackDialog | undefined): HTMLElement | null {
  for (let d = dialog; d; d = d.previous) {
    if (canTakeFocus(d.opener)) return d.opener;
    const target = d.popoverTargets.find(canTakeFocus);
    if (target) return target;
    const fallback = d.fallback() ?? null;
    if (canTakeFocus(fallback)) return fallback;
  }
  return null;
}

/**
 * Where the focus goes when a dialog's opener has gone from the page, or is disabled, as the
 * dialog gives the focus back (the row whose Delete opened a confirmation, removed by the delete:
 * the next row, else the previous one, else the empty state). Called then, once, with the dialog
 * closed; what it returns gets the focus when it is connected, enabled and not in an overlay that
 * is closing; else the focus stays where it is (`null`, `undefined`: no fallback).
 */
export type FocusBackFallback = () => HTMLElement | null | undefined;

/** The SDK dialogs' focus back when none is given (the focus stays where it is). */
const noFallback: FocusBackFallback = () => null;

/**
 * The `onClosed` side of a {@link FocusBackFallback}, for an SDK dialog mounted closed (toggling
 * `isOpen`): Blueprint has just given the focus back to what had it before the dialog (`node`: its
 * container) opened; when that found nothing to take it (the opener gone from the page, or
 * disabled), the focus is still in the faded dialog's overlay or on the page, and `fallback()`
 * gets it. Nothing moves when the focus is elsewhere (the opener has it; another dialog took it).
 */
function focusFallbackIfNotBack(node: HTMLElement, fallback: FocusBackFallback | undefined): void {
  if (!fallback) return;
  const overlay = node.closest(`.${Classes.OVERLAY}`) ?? node;
  if (!focusOnPage() && !(document.activeElement && overlay.contains(document.activeElement))) return;
  const el = fallback() ?? null;
  if (canTakeFocus(el)) el.focus();
}

/**
 * Gives the focus back to what had it when the calling dialog mounted (the button that opened
 * it) once the dialog unmounts and the focus is left on the page. Blueprint gives it back only
 * when `isOpen` turns false and the dialog has faded; a dialog rendered only while it is open
 * (`{editing && <EditDialog />}`) is removed at once, on Save, Cancel or Escape, and the focus
 * stayed on the page, where Tab starts over from the top. Nothing moves when the focus is
 * somewhere already, when the opener is gone or disabled, or while another dialog is open that
 * does not hold it (Blueprint brings the focus into that one: the matrix a new role opens).
 * A dialog that opened while another one calling this hook was up, from a control that is gone
 * or disabled by the time it closes (the busy Save of the dialog it took over from), gives the
 * focus to that dialog's opener instead: the matrix a new role opens, closed, gives it back to
 * New role. A dialog opened from an item of a Blueprint popover menu (`Popover` or
 * `PopoverNext`, the item closing the menu; see {@link focusBackUnlessMoved} for the menu's side)
 * finds that item gone, or fading out with the menu, when it closes: the focus goes
 * to the control that opened the menu (a row's More button), the target of a click popover open
 * when the dialog first rendered (marked `bp6-popover-open`, `aria-expanded="true"`; hover
 * popovers and tooltips are not). A dialog drawn with the SDK's {@link Dialog} or {@link Alert}
 * (Blueprint's, mounted open) has it called for it: use those first. Else call it in the dialog's
 * component, in the part that renders first (not in a form shown after a spinner, which would take
 * the spinner's focus for its opener).
 *
 * `fallback` ({@link FocusBackFallback}) says where the focus goes instead when the opener (and the
 * popover's target) has gone from the page or is disabled by then (the row that a confirmed delete
 * removed); it is tried before the opener of a dialog this one took over from.
 *
 * One registration per dialog: called in the content of an SDK `Dialog` or `Alert` that gives the
 * focus back itself (mounted open), it does nothing (its `fallback` neither: give that dialog the
 * fallback), so a part that may be drawn in either kind of dialog calls it unconditionally
 * (CrudForm does: in a `CrudFormDialog`, which is the SDK's `Dialog`, or in a Blueprint `Drawer`).
 * A dialog nested in such content (opened from a control in it) is drawn with the SDK's `Dialog` or `Alert`, which registers for itself (a `Drawer` there that
 * calls this hook would be taken for part of the dialog around it).
 */
export function useFocusBackOnUnmount(fallback?: FocusBackFallback): void {
  useFocusBackRegistration(!useContext(FocusBackRegistered), fallback);
}

/**
 * Whether the SDK {@link Dialog} or {@link Alert} around registered for {@link useFocusBackOnUnmount}
 * itself (mounted open): its content's calls do nothing. Each SDK dialog sets it for its content.
 */
const FocusBackRegistered = createContext(false);

/** {@link useFocusBackOnUnmount}'s work, done only when `enabled` (the value of its first render). */
function useFocusBackRegistration(enabled: boolean, fallback: FocusBackFallback | undefined): void {
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  // Read while the dialog first renders, before an autoFocus field takes the focus.
  const [dialog] = useState<FocusBackDialog | null>(() => {
    if (!enabled) return null;
    const opener = typeof document === 'undefined' ? null : document.activeElement;
    return {
      opener,
      popoverTargets: openPopoverTargets(opener),
      previous: focusBackDialogs.at(-1),
      mounted: false,
      fallback: () => (fallbackRef.current ?? noFallback)(),
    };
  });
  useEffect(() => {
    if (!dialog) return;
    dialog.mounted = true;
    if (!focusBackDialogs.includes(dialog)) focusBackDialogs.push(dialog);
    return () => {
      dialog.mounted = false;
      // After the commit that removed the dialog and Blueprint's own clean-up. The dialog stays
      // listed until then, so that one taking over in the same moment still finds its opener.
      setTimeout(() => {
        if (dialog.mounted) return; // Mounted again (StrictMode's second effect run).
        const at = focusBackDialogs.indexOf(dialog);
        if (at >= 0) focusBackDialogs.splice(at, 1);
        if (!focusOnPage()) return;
        const opener = focusBackTarget(dialog);
        if (!opener) return;
        const otherDialog = Array.from(document.querySelectorAll(`.${Classes.OVERLAY_OPEN}`)).some(
          (o) => o.querySelector(`:scope > .${Classes.OVERLAY_BACKDROP}`) !== null && !o.contains(opener),
        );
        if (!otherDialog) opener.focus();
      });
    };
  }, [dialog]);
}

/**
 * The focus-back registration of an SDK {@link Dialog} or {@link Alert} and the context of its
 * content: mounted open (`registered`), it registers as it first renders (beside the Blueprint
 * dialog, so before its content) and tells the content's {@link useFocusBackOnUnmount} calls to do
 * nothing; mounted closed, it tells them to register (Blueprint gives its focus back when it fades,
 * and they find the focus moved already), also inside another SDK dialog's content.
 */
function FocusBackScope(props: { registered: boolean; fallback?: FocusBackFallback | undefined; children: ReactNode }) {
  return (
    <FocusBackRegistered.Provider value={props.registered}>
      {props.registered && <FocusBackOnUnmount fallback={props.fallback} />}
      {props.children}
    </FocusBackRegistered.Provider>
  );
}

/** Registers the SDK dialog it is rendered beside (it first renders when the dialog does). */
function FocusBackOnUnmount(props: { fallback: FocusBackFallback | undefined }): null {
  useFocusBackRegistration(true, props.fallback);
  return null;
}

/** A field to type in or pick from: what a dialog's focus goes to first. */
const FIELD = 'input:not([type="hidden"]), select, textarea, [contenteditable]:not([contenteditable="false"])';
/** What Tab reaches (Blueprint's focus traps are outside the dialog's element); with {@link tabbable}, the rule of a page's focus too. */
export const TABBABLE = `a[href], button, ${FIELD}, [tabindex]`;

/**
 * Enabled, reached by Tab (no negative `tabindex`), and not hidden (`hidden`, `aria-hidden`, `inert`
 * on it or above; not rendered, `display: none`, where the browser has `checkVisibility`).
 */
export function tabbable(el: Element): el is HTMLElement {
  return (
    el instanceof HTMLElement &&
    !el.matches(':disabled, [tabindex^="-"]') &&
    el.closest('[hidden], [aria-hidden="true"], [inert]') === null &&
    (typeof el.checkVisibility !== 'function' || el.checkVisibility())
  );
}

/** In a dialog's header (its Close button). */
function inDialogHeader(el: Element): boolean {
  return el.closest(`.${Classes.DIALOG_HEADER}`) !== null;
}

/**
 * The control a dialog's focus goes to when it opens (`container`: Blueprint's dialog container,
 * what `onOpened` is given): the first field (input that is not hidden, select, textarea,
 * contenteditable) of its body (neither the header nor the footer), else the first tabbable control
 * outside the header (the body's, then the footer's buttons, in DOM order), else the header's
 * Close button. Disabled, `tabindex="-1"` and hidden elements do not count.
 */
function firstControl(container: HTMLElement): HTMLElement | null {
  const dialog = container.querySelector(`.${Classes.DIALOG}`) ?? container;
  const inFooter = (el: Element) => el.closest(`.${Classes.DIALOG_FOOTER}, .${Classes.ALERT_FOOTER}`) !== null;
  const field = Array.from(dialog.querySelectorAll(FIELD)).find((el) => tabbable(el) && !inDialogHeader(el) && !inFooter(el));
  if (field) return field as HTMLElement;
  const controls = Array.from(dialog.querySelectorAll(TABBABLE)).filter(tabbable);
  return controls.find((el) => !inDialogHeader(el)) ?? controls[0] ?? null;
}

/** Closed again before it had finished opening (or removed): Blueprint gives the focus back to the opener. */
function closingOrGone(container: HTMLElement): boolean {
  return !container.isConnected || container.closest(`.${Classes.OVERLAY}:not(.${Classes.OVERLAY_OPEN})`) !== null;
}

/**
 * Whether `el`, which has the focus, is what Blueprint focuses in the dialog (`container`) when no
 * control did: the overlay's focus traps, the dialog's container or element.
 */
function onTrap(container: HTMLElement, el: Element): boolean {
  const overlay = container.closest(`.${Classes.OVERLAY}`) ?? container;
  if (!overlay.contains(el)) return false;
  return (
    el === container ||
    el.classList.contains(Classes.OVERLAY_START_FOCUS_TRAP) ||
    el.classList.contains(Classes.OVERLAY_END_FOCUS_TRAP) ||
    el.classList.contains(Classes.OVERLAY_CONTENT) ||
    el.classList.contains(Classes.DIALOG)
  );
}

/**
 * The other overlay, closing (fading out), that `el` (what has the focus) is in while the dialog
 * (`container`) opens: the command palette (itself an SDK {@link Dialog}) whose entry opened this
 * dialog, the menu whose item did. `null` when it is elsewhere.
 */
function closingOverlayWithFocus(container: HTMLElement, el: Element | null = document.activeElement): Element | null {
  const overlay = el?.closest(`.${Classes.OVERLAY}`) ?? null;
  if (!overlay || overlay.classList.contains(Classes.OVERLAY_OPEN) || overlay.contains(container)) return null;
  return overlay;
}

/**
 * Whether nothing in the dialog (`container`) has the focus yet: it is on what Blueprint focuses
 * when no control did ({@link onTrap}), or still in another overlay that is closing (the command
 * palette that opened the dialog, fading out: its search box goes with it, and the focus would be
 * lost to the dialog's empty trap, see {@link closingOverlayWithFocus}). Not when a control in it
 * has it (an `autoFocus` field), nor when the focus is outside its overlay otherwise (a dialog that
 * does not take it, `autoFocus={false}`; another overlay that is open), nor on the page: Blueprint
 * brings the focus from the page onto its trap (the pass after its frame sees it there), so on the
 * page it is where a control the user pressed left it (a busy button in the dialog, disabled while
 * the dialog was still opening), which that control takes back itself ({@link BusyButton}).
 */
function focusUnsettled(container: HTMLElement): boolean {
  if (closingOrGone(container) || focusOnPage()) return false;
  return onTrap(container, document.activeElement!) || closingOverlayWithFocus(container) !== null;
}

/** Whether `el` is in an overlay that is open now (a dialog, a popover; not the page, whose body has the class too while one is). */
function inOpenOverlay(el: Element): boolean {
  return el.closest(`.${Classes.OVERLAY}.${Classes.OVERLAY_OPEN}`) !== null;
}

/**
 * How long (ms) at most a dialog that took the focus out of a closing overlay keeps it from that
 * overlay's focus return ({@link keepFocusWhileClosing}); it stops sooner, once the overlay has gone.
 */
const CLOSING_OVERLAY_WAIT_MS = 10_000;

/**
 * Watches the overlay (`closing`) that had the focus as the dialog (`container`) began to open,
 * once the dialog has placed the focus (on `placed`). Once that overlay has faded, Blueprint gives that overlay's focus back to what had it
 * before it opened (the button behind both, on the page), and the dialog's focus enforcement then
 * brings it onto its empty trap, where keys are lost. While it fades, a focus that leaves the
 * dialog for the page (outside every open overlay; not a popover opened from the dialog) goes back
 * at once to the dialog's control that had it. Stops when that overlay has faded (emptied, removed
 * or open again), when the dialog closes, and after {@link CLOSING_OVERLAY_WAIT_MS}. Returns stop.
 */
function keepFocusWhileClosing(container: HTMLElement, closing: Element, placed: HTMLElement): () => void {
  const overlay = container.closest(`.${Classes.OVERLAY}`) ?? container;
  let last = placed;
  return watchFocusAndDom({
    waitMs: CLOSING_OVERLAY_WAIT_MS,
    observe: (observer) => observer.observe(closing, { childList: true, attributes: true, attributeFilter: ['class'] }),
    onMutation: (stop) => {
      if (overlayFaded(closing)) stop();
    },
    onFocusIn: (e, stop) => {
      if (closingOrGone(container) || overlayFaded(closing)) return stop();
      if (!(e.target instanceof Element)) return;
      if (overlay.contains(e.target)) {
        if (!onTrap(container, e.target) && e.target instanceof HTMLElement) last = e.target;
        return;
      }
      if (!inOpenOverlay(e.target) && canTakeFocus(last) && overlay.contains(last)) last.focus();
    },
  });
}

/**
 * The frame of the focus watchers (the dialogs', the workbench's page focus): `onFocusIn` for
 * every focus change (capture) and `onMutation` for every change `observe` asks the
 * MutationObserver for, until one of them calls `stop`, or after `waitMs`. Returns stop.
 */
export function watchFocusAndDom(w: {
  waitMs: number;
  observe(observer: MutationObserver): void;
  onMutation(stop: () => void): void;
  onFocusIn(e: FocusEvent, stop: () => void): void;
}): () => void {
  let stopped = false;
  const onFocusIn = (e: FocusEvent) => w.onFocusIn(e, stop);
  const observer = new MutationObserver(() => w.onMutation(stop));
  const timer = setTimeout(stop, w.waitMs);
  function stop(): void {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    clearTimeout(timer);
    document.removeEventListener('focusin', onFocusIn, true);
  }
  w.observe(observer);
  document.addEventListener('focusin', onFocusIn, true);
  return stop;
}

/**
 * When nothing in the dialog (`container`) has the focus yet, gives it to its first control (the
 * rule is {@link Dialog}'s). Returns the control it focused, `null` when it found none, and
 * `undefined` when it left the focus alone (settled already).
 */
function focusDialogFirstControl(container: HTMLElement): HTMLElement | null | undefined {
  if (!focusUnsettled(container)) return undefined;
  const control = firstControl(container);
  control?.focus();
  return control;
}

/** Whether the closing overlay (`closing`) has faded: emptied, removed, or open again. */
function overlayFaded(closing: Element): boolean {
  return !closing.isConnected || closing.classList.contains(Classes.OVERLAY_OPEN) || closing.childElementCount === 0;
}

/**
 * Runs `place` (which focuses a control of the dialog, `container`, when its focus is not settled
 * yet) and, when it placed the focus while `closing` (the overlay that had the focus as the dialog
 * began to open, {@link closingOverlayWithFocus}) still fades, keeps it there through that
 * overlay's focus return ({@link keepFocusWhileClosing}). Returns what `place` returned, and the
 * watch's stop when one started.
 */
function placeFocus<T extends HTMLElement | null | undefined>(
  container: HTMLElement,
  closing: Element | null,
  place: (container: HTMLElement) => T,
): { placed: T; stop?: () => void } {
  const placed = place(container);
  if (closing && placed && document.activeElement === placed && !overlayFaded(closing)) {
    return { placed, stop: keepFocusWhileClosing(container, closing, placed) };
  }
  return { placed };
}

/**
 * The first-control focus of an opening SDK {@link Dialog} or {@link Alert}: `begin(node)`, as it
 * starts to open (`onOpening`, before Blueprint's frame brings the focus in), notes the other
 * overlay that is closing with the focus in it ({@link closingOverlayWithFocus}; only when `keep`:
 * the dialog enforces its focus); `pass(node)` runs `place` ({@link placeFocus}) and returns what it
 * placed; `stop()` ends the watch that keeps the focus through that overlay's return (on closing;
 * unmounting stops it too).
 */
function useFocusPlacement<T extends HTMLElement | null | undefined>(keep: boolean, place: (container: HTMLElement) => T) {
  const closing = useRef<Element | null>(null);
  const stopKeeping = useRef<(() => void) | null>(null);
  const stop = useCallback(() => {
    stopKeeping.current?.();
    stopKeeping.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  const begin = useCallback(
    (node: HTMLElement) => {
      stop();
      closing.current = keep ? closingOverlayWithFocus(node) : null;
    },
    [keep, stop],
  );
  const pass = useCallback(
    (node: HTMLElement): T => {
      const { placed, stop: keeping } = placeFocus(node, closing.current, place);
      if (keeping) {
        // Once: later passes find the focus settled.
        closing.current = null;
        stopKeeping.current = keeping;
      }
      return placed;
    },
    [place],
  );
  return useMemo(() => ({ begin, pass, stop }), [begin, pass, stop]);
}

/**
 * Runs `fn` (which does nothing once a control has the focus) right after Blueprint has brought
 * the focus into an overlay that is opening, long before the opening transition (300 ms) ends.
 * Overlay2 does it in an animation frame it requests when it opens (`bringFocusInsideOverlay`,
 * from an effect or when its container mounts), which React may run before or after the
 * transition's `onOpening` (an effect can come after that commit). Callbacks of one frame run in
 * the order they were requested: `fn` runs in the next frame, right after Blueprint's when that
 * was requested first (no frame in between where typed keys land on the trap), and again in the
 * frame after it, which runs after every frame requested before it, Blueprint's included.
 */
function afterBlueprintFocus(fn: () => void): void {
  requestAnimationFrame(() => {
    fn();
    requestAnimationFrame(fn);
  });
}

/**
 * How long (ms) after an opening dialog's first-control pass found only its header's Close button
 * (or nothing) it waits for the content to arrive (the body shows a spinner while its data loads).
 */
const DIALOG_LATE_CONTENT_WAIT_MS = 10_000;

/**
 * Watches an opening dialog (`container`) whose body had no control yet (a spinner while its data
 * loads), the focus left on its header's Close button (`placed`) or on Blueprint's trap (`placed`
 * `null`): when the content arrives, the focus goes to its first control outside the header, once.
 * It stops at the first such control, as soon as the focus goes anywhere else (the user moved it:
 * Tab, a click), when the dialog closes, and after {@link DIALOG_LATE_CONTENT_WAIT_MS}. Returns stop.
 */
function watchLateContent(container: HTMLElement, placed: Element | null): () => void {
  // Still in another overlay that is closing (the palette that opened the dialog) counts as not placed yet.
  const waiting = (el: Element | null) =>
    el !== null && el !== document.body && (el === placed || onTrap(container, el) || closingOverlayWithFocus(container, el) !== null);
  return watchFocusAndDom({
    waitMs: DIALOG_LATE_CONTENT_WAIT_MS,
    // Elements added or removed, and controls that turn enabled or shown.
    observe: (observer) =>
      observer.observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'aria-hidden', 'inert', 'tabindex', 'style', 'class'] }),
    onMutation: (stop) => {
      if (closingOrGone(container) || !waiting(document.activeElement)) return stop();
      const control = firstControl(container);
      if (control && !inDialogHeader(control)) {
        stop();
        control.focus();
      }
    },
    onFocusIn: (e, stop) => {
      if (!(e.target instanceof Element) || !waiting(e.target)) stop();
    },
  });
}

/** The header's Close button's accessible name, which Blueprint writes in English ("Close") whatever the language. */
const CLOSE_LABEL: Record<Locale, string> = { 'en-US': 'Close', 'zh-CN': '关闭' };

/**
 * Names a dialog's (`container`'s) Close button in the interface language (`locale`; none: left as
 * Blueprint's). Blueprint renders its `aria-label` once, as the dialog opens, and does not write it again.
 */
function labelCloseButton(container: HTMLElement, locale: Locale | undefined): void {
  if (!locale) return;
  container.querySelector(`.${Classes.DIALOG_CLOSE_BUTTON}`)?.setAttribute('aria-label', CLOSE_LABEL[locale]);
}

/** Props of the SDK's {@link Dialog}: Blueprint's, and whether it focuses its first control. */
export interface FocusDialogProps extends DialogProps {
  /**
   * When the dialog opens and nothing in it has the focus (Blueprint left it on its empty focus
   * trap), give it to the first control (see {@link Dialog}). Default `true`;
   * `false` leaves the focus to Blueprint (as does `autoFocus={false}`).
   */
  focusFirstControl?: boolean;
}

/**
 * Blueprint's `Dialog` (every prop) that opens with the focus on its first control and gives the
 * focus back when it goes.
 *
 * Opening: Blueprint brings the focus into an opening dialog on its empty focus trap, where
 * typing goes nowhere and a keyboard user must Tab first. Right after Blueprint has done so (in
 * the animation frames after `onOpening`, after the caller's own, see {@link afterBlueprintFocus};
 * not once the 300 ms opening transition has ended, which lost the keys typed meanwhile), and
 * again once it has opened (`onOpened`, after the caller's own), when the focus is still on the
 * trap or the dialog's container (not on the page, where a busy control pressed while it opened
 * left it), this one gives it to the first field of its body (input that is not hidden, select,
 * textarea, contenteditable; not the header's nor the footer's), else to the first tabbable control
 * outside the header, in DOM order (a body's button or link, else the footer's first button, e.g.
 * Cancel before Save), else to the header's Close button. A control that has the focus already (a
 * field with `autoFocus`, one the caller's `onOpened` focused) keeps it. Content shown later (after
 * a spinner): when the first pass found only the header's Close button (or nothing), the dialog
 * looks again, once, as its content changes: the focus, still on Close or on the trap, goes to the
 * first control outside the header as soon as there is one (so Enter does not close a dialog that
 * has just loaded), unless the user has moved it meanwhile, the dialog is closing, or 10 s have
 * passed. Opened while another overlay is closing with the focus still in it (the command palette
 * whose entry opened it), the dialog takes that focus as not settled yet: its first control gets it
 * at once, and keeps it when that overlay, faded, gives its focus back behind the dialog
 * ({@link keepFocusWhileClosing}). `focusFirstControl={false}` (or `autoFocus={false}`) opts out.
 *
 * Going: a dialog rendered only while it is open (`{editing && <EditDialog />}`, mounted with
 * `isOpen`) is removed at once when it closes, and Blueprint leaves the focus on the page: this one
 * calls {@link useFocusBackOnUnmount} for it, so the focus goes back to its opener (the rules are
 * the hook's: not when the focus is somewhere already, a dialog that took over from another, a
 * dialog opened from a popover menu), and the hook called in its content does nothing (one
 * registration per dialog: `CrudForm` calls it). One mounted closed (always there, toggling
 * `isOpen`) does not: Blueprint gives its focus back itself once it has faded.
 */
export function Dialog({ focusFirstControl = true, ...props }: FocusDialogProps) {
  // Whether it was open when it mounted; a later `isOpen` does not register it (nor unregister it).
  const [mountedOpen] = useState(props.isOpen);
  const locale = useContext(ServicesContext)?.getOptional(localeServiceRef);
  const { onOpening, onOpened, onClosing, autoFocus, enforceFocus } = props;
  const focusFirst = focusFirstControl && autoFocus !== false;
  const focus = useFocusPlacement(enforceFocus !== false, focusDialogFirstControl);
  const stopWatching = useRef<(() => void) | null>(null);
  const stop = useCallback(() => {
    stopWatching.current?.();
    stopWatching.current = null;
    focus.stop();
  }, [focus]);
  useEffect(() => stop, [stop]);
  const pass = useCallback(
    (node: HTMLElement) => {
      const control = focus.pass(node);
      // Only the header's Close (or nothing) to focus: the body is still loading.
      if (control !== undefined && (control === null || inDialogHeader(control)) && !stopWatching.current) {
        stopWatching.current = watchLateContent(node, control);
      }
    },
    [focus],
  );
  const opening = useCallback(
    (node: HTMLElement) => {
      labelCloseButton(node, locale?.getLocale());
      if (focusFirst) focus.begin(node);
      onOpening?.(node);
      if (focusFirst) afterBlueprintFocus(() => pass(node));
    },
    [onOpening, focusFirst, pass, locale, focus],
  );
  const opened = useCallback(
    (node: HTMLElement) => {
      onOpened?.(node);
      if (focusFirst) pass(node);
    },
    [onOpened, focusFirst, pass],
  );
  const closing = useCallback(
    (node: HTMLElement) => {
      stop();
      onClosing?.(node);
    },
    [onClosing, stop],
  );
  return (
    <FocusBackScope registered={mountedOpen === true}>
      <BlueprintDialog {...props} onOpening={opening} onOpened={opened} onClosing={closing} />
    </FocusBackScope>
  );
}

/** The confirm and cancel buttons of a Blueprint Alert (`container`: its dialog container): the footer's first and second. */
function alertButtons(container: HTMLElement | null): { confirm: HTMLElement | null; cancel: HTMLElement | null } {
  const buttons = container ? Array.from(container.querySelectorAll<HTMLElement>(`.${Classes.ALERT_FOOTER} > button`)) : [];
  return { confirm: buttons[0] ?? null, cancel: buttons[1] ?? null };
}

/**
 * When nothing in the alert (`container`) has the focus yet: Cancel when there is one, else the
 * confirm button. Returns the button it focused, `undefined` when it focused none.
 */
function focusAlertButton(container: HTMLElement): HTMLElement | undefined {
  if (!focusUnsettled(container)) return undefined;
  const { confirm, cancel } = alertButtons(container);
  const button = [cancel, confirm].find((b): b is HTMLElement => b !== null && tabbable(b));
  button?.focus();
  return button;
}

/**
 * Blueprint's `Alert` (every prop) that opens with the focus on a button, keeps it through
 * `loading`, and gives it back when it goes. Blueprint opens an alert with the focus on its empty
 * focus trap; right after it has done so (in the animation frames after `onOpening`, as in
 * {@link Dialog}), and again once the alert has opened (`onOpened`, after the caller's own), when
 * nothing in it has the focus yet, Cancel gets it when there is one (a stray Enter does not confirm
 * a delete), else the confirm button; a control in its content that has the focus already (an
 * `autoFocus` field) keeps it. A `loading` alert's confirm button is disabled and drops the focus
 * to the page, where Escape and Tab are lost: when `loading` ends and the alert stays open, the
 * confirm button takes it back (the rule of {@link BusyButton}: not when the user moved it, nor in
 * an alert that is closing). An alert rendered only while it is open (`{asking && <Alert isOpen />}`,
 * mounted with `isOpen`) is removed at once when it closes, and Blueprint leaves the focus on the
 * page: as {@link Dialog} does, it calls {@link useFocusBackOnUnmount} for it, and the focus goes
 * back to its opener. One mounted closed (toggling `isOpen`) does not: Blueprint gives its focus
 * back itself once it has faded. Either way, when the opener has gone from the page or is disabled
 * by then (the row a confirmed delete removed, a Delete all with nothing left), the focus goes to
 * `focusBackFallback` instead, at that moment, if given.
 *
 * Escape cancels it (`canEscapeKeyCancel` defaults to true when it has `onCancel` or `onClose`,
 * where Blueprint's defaults to false; `false` turns it off), except while it is `loading`: the
 * work it confirmed is under way, as its disabled Cancel says.
 *
 * Its `alertdialog` has a name, which Blueprint's has not: the message (its children) names it,
 * or, with `aria-labelledby` (a heading in the message), that element names it and the message
 * describes it.
 */
export function Alert(props: AlertProps) {
  const messageId = useId();
  const { 'aria-labelledby': labelledBy, children, focusBackFallback, canEscapeKeyCancel, ...blueprintProps } = props;
  const [mountedOpen] = useState(props.isOpen);
  // Escape cancels unless the caller says not, there is nothing to call, or the alert is busy.
  const hasCancelHandler = props.onCancel !== undefined || props.onClose !== undefined;
  const escapeCancels = (canEscapeKeyCancel ?? hasCancelHandler) && props.loading !== true;
  const node = useRef<HTMLElement | null>(null);
  const { onOpening, onOpened, onClosing, onClosed } = props;
  // Blueprint's Alert always enforces its focus.
  const focus = useFocusPlacement(true, focusAlertButton);
  const opening = useCallback(
    (el: HTMLElement) => {
      node.current = el;
      focus.begin(el);
      onOpening?.(el);
      afterBlueprintFocus(() => focus.pass(el));
    },
    [onOpening, focus],
  );
  const opened = useCallback(
    (el: HTMLElement) => {
      node.current = el;
      onOpened?.(el);
      focus.pass(el);
    },
    [onOpened, focus],
  );
  const closing = useCallback(
    (el: HTMLElement) => {
      focus.stop();
      onClosing?.(el);
    },
    [onClosing, focus],
  );
  const closed = useCallback(
    (el: HTMLElement) => {
      // Blueprint has given the focus back (to the opener) right before.
      focusFallbackIfNotBack(el, focusBackFallback);
      onClosed?.(el);
    },
    [onClosed, focusBackFallback],
  );
  useFocusBackWhenDone(props.loading === true, () => alertButtons(node.current).confirm);
  return (
    <FocusBackScope registered={mountedOpen === true} fallback={focusBackFallback}>
      <BlueprintAlert
        {...blueprintProps}
        canEscapeKeyCancel={escapeCancels}
        // Blueprint's Alert hands these to its Dialog, though its props do not list them.
        {...{ 'aria-labelledby': labelledBy ?? messageId, 'aria-describedby': labelledBy ? messageId : undefined }}
        onOpening={opening}
        onOpened={opened}
        onClosing={closing}
        onClosed={closed}
      >
        <div id={messageId}>{children}</div>
      </BlueprintAlert>
    </FocusBackScope>
  );
}

/**
 * Blueprint's `Alert` props, the id of what names the alert (by default its message), and where
 * the focus goes when its opener is gone as it gives the focus back.
 */
export type AlertProps = BlueprintAlertProps & {
  'aria-labelledby'?: string;
  /**
   * Where the focus goes when the alert closes and the control that opened it has gone from the
   * page, or is disabled (see {@link FocusBackFallback}): called once the alert has faded, right
   * after Blueprint's own focus return found nothing to take it (mounted closed), or as it is
   * removed (mounted open). No polling is needed for a confirmed delete that removed the row.
   */
  focusBackFallback?: FocusBackFallback;
};
