/**
 * On a first visit (no language kept) the workbench follows the browser's language: Chinese when
 * the browser prefers it, else English; a kept choice (the user's, or the account's saved
 * preference applied at sign-in, both kept through `setLocale`) wins over the browser.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocale, LOCALE_STORAGE_KEY, readStoredLocale } from './i18n';
import { workbenchFixture } from '../testing/session';

const browser = (languages: string[], language = languages[0] ?? '') => ({ languages, language });
const kept = (v: string | null) => ({ getItem: (k: string) => (k === LOCALE_STORAGE_KEY ? v : null) });

describe('browserLocale', () => {
  it('is zh-CN when the browser prefers Chinese, whatever the variant', () => {
    for (const l of ['zh', 'zh-CN', 'zh-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-TW', 'zh_CN']) expect(browserLocale(browser([l])), l).toBe('zh-CN');
    // The first of the browser's languages the workbench has decides.
    expect(browserLocale(browser(['fr-FR', 'zh-CN', 'en-US']))).toBe('zh-CN');
    expect(browserLocale(browser(['en-GB', 'zh-CN']))).toBe('en-US');
  });

  it('is en-US when the browser prefers English or names no Chinese', () => {
    expect(browserLocale(browser(['en-US']))).toBe('en-US');
    expect(browserLocale(browser(['de-DE', 'fr']))).toBe('en-US');
    expect(browserLocale(browser(['ja']))).toBe('en-US');
  });

  it('reads navigator.language when navigator.languages is empty or missing', () => {
    expect(browserLocale({ languages: [], language: 'zh-CN' })).toBe('zh-CN');
    expect(browserLocale({ language: 'zh-Hans' })).toBe('zh-CN');
    expect(browserLocale({ language: 'en' })).toBe('en-US');
  });
});

describe('readStoredLocale', () => {
  it('follows the browser when no language is kept (or the kept one is not a language of the workbench)', () => {
    expect(readStoredLocale(kept(null), browser(['zh-CN']))).toBe('zh-CN');
    expect(readStoredLocale(kept(null), browser(['en-US']))).toBe('en-US');
    expect(readStoredLocale(kept('fr-FR'), browser(['zh-CN']))).toBe('zh-CN');
  });

  it('keeps a kept choice whatever the browser prefers', () => {
    expect(readStoredLocale(kept('en-US'), browser(['zh-CN']))).toBe('en-US');
    expect(readStoredLocale(kept('zh-CN'), browser(['en-US']))).toBe('zh-CN');
  });
});

describe('the workbench on a first visit', () => {
  const { start } = workbenchFixture({ signedIn: false, locale: null });
  afterEach(() => vi.restoreAllMocks());
  const prefer = (languages: string[]) => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0]!);
  };

  it('starts in Chinese for a browser preferring Chinese, without keeping a choice', async () => {
    prefer(['zh-CN', 'en-US']);
    const w = await start('/');
    expect(w.locale.getLocale()).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBeNull();
  });

  it('starts in English for a browser preferring another language', async () => {
    prefer(['de-DE', 'en-US']);
    const w = await start('/');
    expect(w.locale.getLocale()).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
  });

  it('keeps the language once chosen, over the browser’s', async () => {
    prefer(['zh-CN']);
    const first = await start('/');
    first.locale.setLocale('en-US');
    first.dispose();
    const again = await start('/');
    expect(again.locale.getLocale()).toBe('en-US');
  });
});
