/**
 * Blueprint light and dark themes: `bp6-dark` on `<body>`, the choice kept in local storage.
 */
import { Classes } from '@blueprintjs/core';
import { Emitter, type ThemeName, type ThemeService } from '@decisio/sdk-plugin';

/** Local-storage key of the chosen theme. */
export const THEME_STORAGE_KEY = 'decisio.theme';

/** Reads the kept theme; without one, follows the system preference, else light. */
export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ThemeName {
  const v = storage?.getItem(THEME_STORAGE_KEY);
  if (v === 'light' || v === 'dark') return v;
  const mq = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : undefined;
  return mq?.matches ? 'dark' : 'light';
}

/** {@link ThemeService} that toggles Blueprint's dark class on `document.body`. */
export class ThemeServiceImpl implements ThemeService {
  private readonly didChange = new Emitter<ThemeName>();
  readonly onDidChangeTheme = this.didChange.event;
  private theme: ThemeName;

  constructor(initial: ThemeName, private readonly storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage) {
    this.theme = initial;
    this.apply();
  }

  getTheme(): ThemeName {
    return this.theme;
  }

  setTheme(theme: ThemeName): void {
    if (theme === this.theme) return;
    this.theme = theme;
    this.storage?.setItem(THEME_STORAGE_KEY, theme);
    this.apply();
    this.didChange.fire(theme);
  }

  private apply(): void {
    if (typeof document === 'undefined') return;
    document.body.classList.toggle(Classes.DARK, this.theme === 'dark');
    document.documentElement.dataset.theme = this.theme;
  }
}
