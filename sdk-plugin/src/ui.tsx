/**
 * Small shared controls for pages that render outside the console (public pages): the same
 * language and theme switches as the console header, so that every screen offers them.
 */
import { Button, HTMLSelect } from '@blueprintjs/core';
import type { Locale } from '@decisio/domain';
import { localeServiceRef, themeServiceRef } from './services';
import { useLocale, useService, useTheme } from './react';

/** Language names are written in their own language (endonyms), as language pickers do. */
const LANGUAGE_NAMES: Record<Locale, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

/** Language switch (`data-testid="language-switch"`, a `<select>` with values `zh-CN`/`en-US`). */
export function LanguageSelect() {
  const locale = useLocale();
  const svc = useService(localeServiceRef);
  const label = svc.t('workbench:header.language');
  return (
    <HTMLSelect
      minimal
      aria-label={label}
      title={label}
      value={locale}
      data-testid="language-switch"
      onChange={(e) => svc.setLocale(e.currentTarget.value as Locale)}
      options={(Object.keys(LANGUAGE_NAMES) as Locale[]).map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
    />
  );
}

/** Theme switch (`data-testid="theme-switch"`, `data-theme` = current theme). */
export function ThemeToggle() {
  const theme = useTheme();
  const svc = useService(themeServiceRef);
  const t = useService(localeServiceRef);
  const label = theme === 'dark' ? t.t('workbench:header.themeToLight') : t.t('workbench:header.themeToDark');
  return (
    <Button
      variant="minimal"
      icon={theme === 'dark' ? 'flash' : 'moon'}
      aria-label={label}
      title={label}
      data-testid="theme-switch"
      data-theme={theme}
      onClick={() => svc.setTheme(theme === 'dark' ? 'light' : 'dark')}
    />
  );
}
