/** Pieces the admin screens share: the texts of the SDK's CRUD screen, tree rows and their actions, id selects, shown names. */
import type { ReactNode } from 'react';
import { Button, HTMLSelect, type HTMLSelectProps } from '@blueprintjs/core';
import type { Permission } from '@decisio/domain';
import { crudErrorText, permissionsAllow, useCurrentUser, type CrudLabels, type CrudRowActions } from '@decisio/sdk-plugin';
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
 * The row actions of a tree screen (menus, organisations) over {@link flattenTree}'s rows: "add
 * below" (`addChild`, opens the form of a new child of the row), edit and delete (`confirm(node)`
 * asks, `remove(node)` runs). Without the right to write (`canWrite` false) there are none, as the
 * server refuses them. `open(node, parentId)` opens the form: `null` and the row's id to add
 * below it, the row's node and its parent's id to edit it.
 */
export function treeRowActions<N extends { id: string; parentId: string | null }>(
  canWrite: boolean,
  a: { addChild: ReactNode; open(node: N | null, parentId: string | null): void; confirm(node: N): ReactNode; remove(node: N): Promise<unknown> },
): CrudRowActions<{ node: N; depth: number }> | undefined {
  if (!canWrite) return undefined;
  return {
    lead: (r) => (
      <Button small icon="add" onClick={() => a.open(null, r.node.id)}>
        {a.addChild}
      </Button>
    ),
    edit: (r) => a.open(r.node, r.node.parentId),
    delete: { confirm: (r) => a.confirm(r.node), run: (r) => a.remove(r.node) },
  };
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

/** A role or tenant as the name helpers read it: its fixed code and its stored name. */
type Named = { code?: string; name: string };

/**
 * Whether a role (`kind` `'role'`) or tenant still has the name it was seeded with: the key
 * `<kind>.<code>` (`role.tenant-admin`, `tenant.default`), a translation key and not a text to
 * show, as the seeded menus' `menu.<code>`. A renamed one, and every record users made, has its
 * name as typed.
 */
export function hasSeededName(kind: 'role' | 'tenant', r: Named): boolean {
  return r.code !== undefined && r.name === `${kind}.${r.code}`;
}

/** The shown name of `r`: its seeded key's translation (`builtin.<kind>s.<code>`) while it has it, else its name. */
function seededOrName(kind: 'role' | 'tenant', r: Named, t: (key: string) => string): string {
  if (!hasSeededName(kind, r)) return r.name;
  const key = `builtin.${kind}s.${r.code!.replace(/[.-]/g, '_')}`;
  const text = t(key);
  return text && text !== key ? text : r.name;
}

/** The shown name of a role (`code` and `name`): a seeded one's translated while not renamed, else its name. */
export function roleName(role: Named, t: (key: string) => string): string {
  return seededOrName('role', role, t);
}

/** The shown name of a tenant (`code` and `name`): the seeded default one's translated while not renamed, else its name. */
export function tenantName(tenant: Named, t: (key: string) => string): string {
  return seededOrName('tenant', tenant, t);
}

/** {@link roleName} and {@link tenantName} in the admin bundle's language. */
export function useBuiltinNames() {
  const { t } = useAdminT();
  const tr = t as (key: string) => string;
  return { role: (r: Named) => roleName(r, tr), tenant: (x: Named) => tenantName(x, tr) };
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
