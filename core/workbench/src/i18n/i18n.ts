/**
 * i18next for the workbench: zh-CN and en-US, one namespace per plugin plus `workbench` for the
 * shell; the choice is kept in local storage, and until one is made the browser's language
 * decides.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@decisio/domain';
import { createUseT, Emitter, type LocaleBundles, type LocaleService } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

/** Local-storage key of the chosen language. */
export const LOCALE_STORAGE_KEY = 'decisio.locale';

/** The workbench's own bundles (namespace `workbench`). */
export const WORKBENCH_LOCALES: LocaleBundles = { 'zh-CN': zhCN, 'en-US': enUS };

/** Typed translations of the shell (keys checked against zh-CN). */
export const useWorkbenchT = createUseT<typeof zhCN>('workbench');

/** The browser's languages, most preferred first (`navigator.languages`, else `navigator.language`). */
type BrowserLanguages = Pick<Navigator, 'language'> & Partial<Pick<Navigator, 'languages'>>;

/**
 * The language the browser prefers among those of the workbench: the first of its languages
 * that is Chinese (`zh`, `zh-CN`, `zh-Hans`, `zh-TW`...) or English decides, zh-CN or en-US; en-US
 * when it names neither; zh-CN (the default) when there is no browser to ask.
 */
export function browserLocale(nav: BrowserLanguages | undefined = globalThis.navigator): Locale {
  if (!nav) return DEFAULT_LOCALE;
  const languages = nav.languages?.length ? nav.languages : [nav.language];
  for (const l of languages) {
    const primary = (l ?? '').trim().toLowerCase().split(/[-_]/)[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en-US';
  }
  return 'en-US';
}

/**
 * Reads the kept language (the user's choice, or the saved preference of the account applied
 * at sign-in); with none kept, the browser's ({@link browserLocale}).
 */
export function readStoredLocale(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
  nav: BrowserLanguages | undefined = globalThis.navigator,
): Locale {
  const v = storage?.getItem(LOCALE_STORAGE_KEY);
  return (LOCALES as readonly string[]).includes(v ?? '') ? (v as Locale) : browserLocale(nav);
}

/** Creates an initialised i18next instance (synchronous: resources are bundled). */
export function createI18n(locale: Locale): I18n {
  const inst = i18next.createInstance();
  void inst.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: ['workbench'],
    defaultNS: 'workbench',
    resources: { 'zh-CN': { workbench: zhCN }, 'en-US': { workbench: enUS } },
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
    returnNull: false,
  });
  return inst;
}

/** Adds a plugin's bundles as namespace `ns`. */
export function addPluginLocales(inst: I18n, ns: string, bundles: LocaleBundles): void {
  for (const l of LOCALES) {
    const b = bundles[l];
    if (b) inst.addResourceBundle(l, ns, b, true, true);
  }
}

/** {@link LocaleService} over an i18next instance. */
export class LocaleServiceImpl implements LocaleService {
  private readonly didChange = new Emitter<Locale>();
  readonly onDidChangeLocale = this.didChange.event;

  constructor(
    readonly i18n: I18n,
    private readonly storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
  ) {
    this.applyDocument();
  }

  getLocale(): Locale {
    return this.i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  }

  setLocale(locale: Locale): void {
    if (locale === this.getLocale()) return;
    void this.i18n.changeLanguage(locale);
    this.storage?.setItem(LOCALE_STORAGE_KEY, locale);
    this.applyDocument();
    this.didChange.fire(locale);
  }

  t(key: string, params?: Record<string, unknown>): string {
    return this.i18n.t(key, params as never) as unknown as string;
  }

  private applyDocument(): void {
    if (typeof document !== 'undefined') document.documentElement.lang = this.getLocale();
  }
}
