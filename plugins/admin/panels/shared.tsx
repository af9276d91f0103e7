/** Pieces the admin screens share: the texts of the SDK's CRUD screen, tree rows, id selects. */
import { HTMLSelect, type HTMLSelectProps } from '@blueprintjs/core';
import type { Permission } from '@decisio/domain';
import { crudErrorText, permissionsAllow, useCurrentUser, type CrudLabels } from '@decisio/sdk-plugin';
import { useAdminT } from '../i18n';

/** The CRUD screen's texts from the admin bundle's `common.*` keys. */
export function useCrudLabels(): CrudLabels {
  const { t } = useAdminT();
  return {
    loading: t('common.loading'),
    loadFailed: t('common.loadFailed'),
    retry: t('common.retry'),
    refresh: t('common.refresh'),
    actions: t('common.actions'),
    edit: t('common.edit'),
    delete: t('common.delete'),
    cancel: t('common.cancel'),
    save: t('common.save'),
    deleted: t('common.deleted'),
    failed: t('common.failed'),
    prev: t('common.prev'),
    next: t('common.next'),
  };
}

/** The message of a failed mutation, or `fallback`. */
export const errorText = crudErrorText;

/** Depth-first rows of a tree (`children`), each with its depth, for an indented table. */
export function flattenTree<T extends { children?: T[] }>(nodes: readonly T[], depth = 0): { node: T; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flattenTree(n.children ?? [], depth + 1)]);
}

/**
 * A select of records by id: a first option with the value `''` (none / all), then one option a
 * record, showing its name.
 */
export function IdSelect(props: Omit<HTMLSelectProps, 'onChange' | 'children'> & { value: string; onChange(id: string): void; none: string; items: readonly { id: string; name: string }[] | undefined }) {
  const { onChange, none, items, ...rest } = props;
  return (
    <HTMLSelect {...rest} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {(items ?? []).map((x) => (
        <option key={x.id} value={x.id}>
          {x.name}
        </option>
      ))}
    </HTMLSelect>
  );
}

/**
 * Whether the signed-in user holds `permission` (`'*'` holds every one): the screens show their
 * write buttons (add, edit, delete, ...) only then, as the server refuses the calls otherwise.
 */
export function useCan(permission: Permission): boolean {
  return permissionsAllow(useCurrentUser().data, [permission]);
}

/**
 * Built-in roles and tenants, by their fixed code: the name they were seeded with (English), shown
 * translated (`builtin.roles.<code>` / `builtin.tenants.<code>`) while it is unchanged; a renamed
 * one, and every record users made, shows its name as typed.
 */
const BUILTIN_ROLES: Readonly<Record<string, string>> = { admin: 'System administrator', 'tenant-admin': 'Tenant administrator', user: 'User' };
const BUILTIN_TENANTS: Readonly<Record<string, string>> = { default: 'Default' };

/** The translation key of a role's name when it is a built-in one, else null. */
function builtinKey(table: Readonly<Record<string, string>>, prefix: string, r: { code?: string; name: string }): string | null {
  return r.code !== undefined && Object.hasOwn(table, r.code) && table[r.code] === r.name ? `${prefix}.${r.code.replace(/-/g, '_')}` : null;
}

/** The shown name of a role (`code` and `name`): a built-in one translated, else its name. */
export function roleName(role: { code?: string; name: string }, t: (key: string) => string): string {
  const key = builtinKey(BUILTIN_ROLES, 'builtin.roles', role);
  return key ? t(key) : role.name;
}

/** The shown name of a tenant (`code` and `name`): the built-in default one translated, else its name. */
export function tenantName(tenant: { code?: string; name: string }, t: (key: string) => string): string {
  const key = builtinKey(BUILTIN_TENANTS, 'builtin.tenants', tenant);
  return key ? t(key) : tenant.name;
}

/** {@link roleName} and {@link tenantName} in the admin bundle's language. */
export function useBuiltinNames() {
  const { t } = useAdminT();
  const tr = t as (key: string) => string;
  return { role: (r: { code?: string; name: string }) => roleName(r, tr), tenant: (x: { code?: string; name: string }) => tenantName(x, tr) };
}

/**
 * The rule a form field of `area` breaks, for its helper text: `<area>.rules.<field>` (e.g. "Enter
 * 5 to 20 letters, ..."), else the area's generic `<area>.invalid`.
 */
export function useFieldRule(area: 'users' | 'roles' | 'menus' | 'tenants'): (field: string) => string {
  const { t } = useAdminT();
  const tr = t as (key: string) => string;
  return (field: string) => {
    const key = `${area}.rules.${field}`;
    const text = tr(key);
    return text && text !== key ? text : tr(`${area}.invalid`);
  };
}
