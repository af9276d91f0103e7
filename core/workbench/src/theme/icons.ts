/**
 * Blueprint icon paths, fetched one icon and size at a time from the static JSON files the
 * build emits (`vite.config.ts`, `blueprintIconFiles`). Blueprint's default loader fetches every
 * icon of a size at once (about 100 KB gzip each), and a glob of per-icon modules would put a
 * map of every icon into the first load; this loader costs a few hundred bytes. Everything is
 * served by the product itself: no CDN.
 */
import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

declare const __DECISIO_ICONS__: string | undefined;

/** Where the icon files are, relative to the page's base URL. */
const ICON_DIR = typeof __DECISIO_ICONS__ === 'string' ? __DECISIO_ICONS__ : 'assets/icons/dev';

const cache = new Map<string, Promise<IconPaths>>();

/** Loads the paths of one icon; an unknown name or a failed fetch gives no paths (an empty icon). */
export function loadIconPaths(name: IconName, size: IconSize): Promise<IconPaths> {
  const px = size === IconSize.LARGE ? '20' : '16';
  const key = `${px}/${name}`;
  let p = cache.get(key);
  if (!p) {
    const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
    p = fetch(`${base}${ICON_DIR}/${key}.json`)
      .then((r) => (r.ok ? (r.json() as Promise<IconPaths>) : []))
      .catch(() => {
        cache.delete(key); // try again next time (e.g. offline for a moment)
        return [] as IconPaths;
      });
    cache.set(key, p);
  }
  return p;
}

/** Installs {@link loadIconPaths} as Blueprint's icon loader. */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}
