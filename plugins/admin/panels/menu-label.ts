/** Labels of menus: the seeded ones are translated by their code while not renamed, others show their name. */
import type { MenuItem } from '@decisio/domain';

/** Translation key of a seeded menu's label (`menuNames.admin_users`), by its code. */
export function menuLabelKey(code: string): string {
  return `menuNames.${code.replace(/[.-]/g, '_')}`;
}

/** Whether `menu` still has the name it was seeded with (`menu.<code>`, a key, not a text to show). */
export function hasSeededName(menu: Pick<MenuItem, 'code' | 'name'>): boolean {
  return menu.name === `menu.${menu.code}`;
}

/** The label of `menu`: its translated seeded name while it has it, else its own name (a rename shows). */
export function menuLabel(menu: Pick<MenuItem, 'code' | 'name'>, t: (key: string) => string): string {
  if (!hasSeededName(menu)) return menu.name;
  const key = menuLabelKey(menu.code);
  const text = t(key);
  return text && text !== key ? text : menu.name;
}
