import { describe, expect, it } from 'vitest';
import { readStoredTheme, THEME_STORAGE_KEY, ThemeServiceImpl } from './theme-service';
import { LOCALE_STORAGE_KEY, LocaleServiceImpl, createI18n, readStoredLocale } from '../i18n/i18n';

describe('theme and language', () => {
  it('puts bp6-dark on the body and keeps the choice', () => {
    localStorage.clear();
    const t = new ThemeServiceImpl('light');
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
    t.setTheme('dark');
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(readStoredTheme()).toBe('dark');
    t.setTheme('light');
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
  });

  it('starts in zh-CN for a Chinese browser and keeps the chosen language', () => {
    localStorage.clear();
    const chinese = { languages: ['zh-CN'], language: 'zh-CN' };
    expect(readStoredLocale(localStorage, chinese)).toBe('zh-CN');
    const l = new LocaleServiceImpl(createI18n(readStoredLocale(localStorage, chinese)));
    expect(l.t('workbench:notFound.title')).toBe('页面不存在');
    l.setLocale('en-US');
    expect(l.t('workbench:notFound.title')).toBe('Page not found');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    expect(readStoredLocale(localStorage, chinese)).toBe('en-US');
  });
});
