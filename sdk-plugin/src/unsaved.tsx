/**
 * Unsaved changes: a page whose edits are not saved yet asks before they are lost, when the
 * browser closes or reloads it (`beforeunload`), when the workbench would navigate away (side
 * menu, palette, links, back and forward: the workbench's router asks {@link unsavedChanges}
 * first), and when the page itself would drop them (another record chosen, a new one begun).
 */
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Emitter, toDisposable, type Disposable } from './lifecycle';
import { Alert } from './react';
import zhCN from './unsaved.zh-CN.json';
import enUS from './unsaved.en-US.json';

/** The texts of the question (namespace `sdk-unsaved`), added to the host's i18next on first use. */
export const UNSAVED_NAMESPACE = 'sdk-unsaved';
/** The question's texts in each language (zh-CN and en-US have the same keys). */
export const UNSAVED_BUNDLES = { 'zh-CN': zhCN, 'en-US': enUS } as const;

function addBundles(i18n: I18n): void {
  for (const [locale, bundle] of Object.entries(UNSAVED_BUNDLES)) {
    if (!i18n.hasResourceBundle(locale, UNSAVED_NAMESPACE)) i18n.addResourceBundle(locale, UNSAVED_NAMESPACE, bundle, true, false);
  }
}

/** One page's unsaved edits, as registered with {@link UnsavedChangesRegistry}. */
export interface UnsavedChangesEntry {
  /**
   * Asks the user whether to leave (and lose) the edits; resolves `true` to leave, `false` to
   * stay. Resolves `true` at once when there is nothing unsaved any more.
   */
  confirmLeave(): Promise<boolean>;
}

/**
 * The pages with unsaved edits. The workbench's navigation guard blocks a navigation while any
 * is registered, until {@link UnsavedChangesRegistry.confirmLeave} says the user agreed to leave.
 * Register through {@link useUnsavedChangesGuard}, not by hand.
 */
export class UnsavedChangesRegistry {
  private readonly entries: UnsavedChangesEntry[] = [];
  private readonly didChange = new Emitter<void>();
  /** Fires after an entry was registered or disposed. */
  readonly onDidChange = this.didChange.event;

  /** Registers a page's edits until the returned disposable is disposed (once the edits are saved or dropped). */
  register(entry: UnsavedChangesEntry): Disposable {
    this.entries.push(entry);
    this.didChange.fire();
    return toDisposable(() => {
      const at = this.entries.indexOf(entry);
      if (at < 0) return;
      this.entries.splice(at, 1);
      this.didChange.fire();
    });
  }

  /** Whether any page has registered unsaved edits. */
  hasUnsavedChanges(): boolean {
    return this.entries.length > 0;
  }

  /**
   * Asks each registered page in turn (the latest first); resolves `true` when every one agreed
   * to leave (or none is registered), `false` as soon as one chose to stay.
   */
  async confirmLeave(): Promise<boolean> {
    for (const e of [...this.entries].reverse()) {
      if (!(await e.confirmLeave())) return false;
    }
    return true;
  }
}

/** The workbench's one registry of unsaved edits (its router's navigation guard reads it). */
export const unsavedChanges = new UnsavedChangesRegistry();

/** What {@link useUnsavedChangesGuard} gives its page. */
export interface UnsavedChangesGuard {
  /**
   * Asks "Leave this page? Your unsaved changes will be lost." when `dirty`; resolves `true` to
   * go on (Leave, or nothing unsaved), `false` to stay. For the page's own ways of dropping its
   * edits (another record chosen, "New").
   */
  confirmDiscard(): Promise<boolean>;
  /** The question's alert (the SDK's {@link Alert}: Stay has the focus, Escape stays): render it in the page. */
  dialog: ReactElement;
}

/**
 * Guards a page's unsaved edits while `dirty`: closing or reloading the browser's page asks the
 * browser's own question (`beforeunload`), and a navigation of the workbench (side menu, palette,
 * links, back/forward) asks first with an alert "Leave this page? Your unsaved changes will be
 * lost." (Leave / Stay; Stay has the focus and Escape stays). A saved page (`dirty` false) asks
 * nothing. Render the returned `dialog` in the page.
 *
 * @param dirty whether the page holds edits not saved yet
 * @param message the question, in place of the default one (already translated)
 */
export function useUnsavedChangesGuard(dirty: boolean, message?: string): UnsavedChangesGuard {
  const { t, i18n } = useTranslation(UNSAVED_NAMESPACE);
  addBundles(i18n);
  const [asking, setAsking] = useState(false);
  const pending = useRef<((leave: boolean) => void) | null>(null);
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;

  const answer = useCallback((leave: boolean) => {
    const resolve = pending.current;
    pending.current = null;
    setAsking(false);
    resolve?.(leave);
  }, []);
  const confirmDiscard = useCallback((): Promise<boolean> => {
    if (!dirtyNow.current) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      // A question still open (asked twice) is answered "stay" for the first asker.
      pending.current?.(false);
      pending.current = resolve;
      setAsking(true);
    });
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const registration = unsavedChanges.register({ confirmLeave: confirmDiscard });
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      registration.dispose();
    };
  }, [dirty, confirmDiscard]);
  // A page removed while it asks has nothing left to keep: whoever waits may go on.
  useEffect(() => () => pending.current?.(true), []);

  const dialog = (
    <Alert
      isOpen={asking}
      intent="warning"
      icon="warning-sign"
      confirmButtonText={t('unsaved.leave')}
      cancelButtonText={t('unsaved.stay')}
      canEscapeKeyCancel
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    >
      <p data-testid="unsaved-changes-question">{message ?? t('unsaved.message')}</p>
    </Alert>
  );
  return { confirmDiscard, dialog };
}
