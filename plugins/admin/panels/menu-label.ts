/** Labels of menus: the seeded ones are translated by their code, others show their name. */
import type { MenuItem } from '@decisio/domain';

/** Translation key of a seeded menu's label (`menuNames.admin_users`), by its code. */
export function menuLabelKey(code: string): string {
  return `menuNames.${code.replace(/[.-]/g, '_')}`;
}

/** The label of `menu`: its translated seeded name, else its own name. */
export function menuLabel(menu: Pick<MenuItem, 'code' | 'name'>, t: (key: string) => string): string {
  const key = menuLabelKey(menu.code);
  const text = t(key);
  return text && text !== key ? text : menu.name;
}
