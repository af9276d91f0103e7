/**
 * Blueprint icon paths, one lazily loaded module per icon and size. Blueprint's default loader
 * fetches every icon of a size at once (about 100 KB gzip each); this one fetches only the
 * icons a page shows. Everything is bundled: no CDN.
 */
import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

const ROOT = '../../../../node_modules/@blueprintjs/icons/lib/esm/generated';
const paths16 = import.meta.glob<IconPaths>('../../../../node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/*.js', { import: 'default' });
const paths20 = import.meta.glob<IconPaths>('../../../../node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/*.js', { import: 'default' });

/** Loads the paths of one icon; an unknown name gives no paths (an empty icon). */
export async function loadIconPaths(name: IconName, size: IconSize): Promise<IconPaths> {
  const large = size === IconSize.LARGE;
  const load = (large ? paths20 : paths16)[`${ROOT}/${large ? '20px' : '16px'}/paths/${name}.js`];
  return load ? load() : [];
}

/** Installs {@link loadIconPaths} as Blueprint's icon loader. */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}
