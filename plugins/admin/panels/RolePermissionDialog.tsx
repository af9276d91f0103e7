import { useEffect, useSyncExternalStore } from 'react';
import { Button, Checkbox, DialogBody, DialogFooter, H6, NonIdealState, Spinner } from '@blueprintjs/core';
import { DIALOG_WIDTH, PERMISSIONS, type MenuItem, type RoleItem } from '@decisio/domain';
import { BusyButton, Dialog, useCurrentUser, useNotify } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { menuLabel } from './menu-label';
import { errorText, flattenTree, useBuiltinNames } from './shared';

/** Every id in a subtree. */
function subtreeIds(node: MenuItem): string[] {
  return [node.id, ...(node.children ?? []).flatMap(subtreeIds)];
}

/** What the user ticked in a role's matrix: the menus and the permissions apart. */
interface Draft {
  menuIds: ReadonlySet<string>;
  extra: ReadonlySet<string>;
}

/**
 * The matrix drafts, by role id, outside any component: a refetch of the role list, of the
 * role's menus or of the menu tree, or the dialog mounting again, never replaces what the user
 * ticked. A draft starts from the server's answer the first time it arrives and ends when the
 * matrix is saved or closed.
 */
const drafts = new Map<string, Draft>();
const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => (listeners.add(fn), () => void listeners.delete(fn));
function setDraft(roleId: string, draft: Draft | undefined): void {
  if (draft) drafts.set(roleId, draft);
  else drafts.delete(roleId);
  for (const fn of listeners) fn();
}

/** The draft of `roleId` (undefined until the role's menus first arrive) and its setter. */
function useDraft(roleId: string): [Draft | undefined, (change: (d: Draft) => Draft) => void] {
  const draft = useSyncExternalStore(subscribe, () => drafts.get(roleId));
  const update = (change: (d: Draft) => Draft) => {
    const d = drafts.get(roleId);
    if (d) setDraft(roleId, change(d));
  };
  return [draft, update];
}

/**
 * The menu/permission matrix of a role: tick the menus it sees (a group ticks its pages); the
 * permissions of the ticked menus come with them, and the write permissions are ticked apart.
 * Saved with `PUT roles/permission`.
 */
export function RolePermissionDialog(props: { role: RoleItem; onClose(): void }) {
  const { t } = useAdminT();
  const names = useBuiltinNames();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const tree = adminApi.endpoints['admin/menuTree'].useQuery();
  const current = adminApi.endpoints['admin/roleMenus'].useQuery(props.role.id);
  const [save, saving] = adminApi.endpoints['admin/setRolePermission'].useMutation();
  const roleId = props.role.id;
  const [draft, update] = useDraft(roleId);
  const menuIds = draft?.menuIds ?? null;
  const extra = draft?.extra ?? new Set<string>();
  const rows = flattenTree(tree.data ?? []);
  const menuPermissions = new Set(rows.map((r) => r.node.permission).filter((p): p is string => p !== null));
  // What a matrix can grant besides menus: the permissions no menu carries (writes), held by the caller.
  const mine = me?.permissions ?? [];
  const grantable = PERMISSIONS.filter((p) => !menuPermissions.has(p) && (mine.includes('*') || mine.includes(p)));

  // The first answer for this role starts its draft; later answers (refetches) leave it alone.
  const serverData = current.data && current.data.roleId === roleId ? current.data : undefined;
  const treeReady = tree.data !== undefined;
  useEffect(() => {
    if (serverData && treeReady && !drafts.has(roleId)) {
      setDraft(roleId, { menuIds: new Set(serverData.menuIds), extra: new Set(serverData.permissions.filter((p) => !menuPermissions.has(p))) });
    }
  }, [serverData, treeReady, roleId, menuPermissions]);

  const close = () => {
    setDraft(roleId, undefined);
    props.onClose();
  };

  const toggle = (node: MenuItem, on: boolean) =>
    update((d) => {
      const next = new Set(d.menuIds);
      for (const id of subtreeIds(node)) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return { ...d, menuIds: next };
    });

  const submit = async () => {
    try {
      await save({ roleId, menuIds: [...(menuIds ?? [])], permissions: [...extra] }).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      close();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };

  // Shown only while open, the SDK's Dialog gives the focus back to its opener when it goes (the
  // role's Matrix button, or New role when the matrix took over from the new role's dialog).
  return (
    <Dialog isOpen onClose={close} title={t('roles.matrixTitle', { name: names.role(props.role) })} style={{ width: DIALOG_WIDTH.lg }}>
      <DialogBody>
        {(tree.isLoading || current.isLoading || menuIds === null) && !tree.error && !current.error ? (
          <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />
        ) : tree.error || current.error ? (
          <NonIdealState icon="error" title={t('common.loadFailed')} />
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
            <div role="group" aria-label={t('roles.menus')} data-testid="admin-matrix-menus">
              <H6>{t('roles.menus')}</H6>
              {rows.map(({ node, depth }, i) => (
                <div key={node.id} style={{ paddingLeft: depth * 20 }}>
                  <Checkbox
                    label={menuLabel(node, t as (k: string) => string)}
                    checked={menuIds!.has(node.id)}
                    onChange={(e) => toggle(node, (e.target as HTMLInputElement).checked)}
                    // The first menu takes the focus once the matrix shows (Blueprint would leave it on its empty focus trap).
                    autoFocus={i === 0}
                    data-testid={`admin-matrix-menu-${node.code}`}
                  />
                </div>
              ))}
            </div>
            <div role="group" aria-label={t('roles.extra')}>
              <H6>{t('roles.extra')}</H6>
              <p className="bp6-text-muted">{t('roles.extraHelp')}</p>
              {grantable.map((p) => (
                <Checkbox
                  key={p}
                  label={p}
                  checked={extra.has(p)}
                  onChange={(e) => {
                    const on = (e.target as HTMLInputElement).checked;
                    update((d) => {
                      const next = new Set(d.extra);
                      if (on) next.add(p);
                      else next.delete(p);
                      return { ...d, extra: next };
                    });
                  }}
                />
              ))}
            </div>
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <BusyButton intent="primary" loading={saving.isLoading} disabled={menuIds === null} onClick={() => void submit()} data-testid="admin-matrix-save">
              {t('common.save')}
            </BusyButton>
          </>
        }
      />
    </Dialog>
  );
}
