import { useEffect, useState } from 'react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, H6, NonIdealState, Spinner } from '@blueprintjs/core';
import { DIALOG_WIDTH, PERMISSIONS, type MenuItem, type RoleItem } from '@decisio/domain';
import { useCurrentUser, useNotify } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { menuLabel } from './menu-label';
import { errorText, flattenTree } from './shared';

/** Every id in a subtree. */
function subtreeIds(node: MenuItem): string[] {
  return [node.id, ...(node.children ?? []).flatMap(subtreeIds)];
}

/**
 * The menu/permission matrix of a role: tick the menus it sees (a group ticks its pages); the
 * permissions of the ticked menus come with them, and the write permissions are ticked apart.
 * Saved with `PUT roles/permission`.
 */
export function RolePermissionDialog(props: { role: RoleItem; onClose(): void }) {
  const { t } = useAdminT();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const tree = adminApi.endpoints['admin/menuTree'].useQuery();
  const current = adminApi.endpoints['admin/roleMenus'].useQuery(props.role.id);
  const [save, saving] = adminApi.endpoints['admin/setRolePermission'].useMutation();
  const [menuIds, setMenuIds] = useState<Set<string> | null>(null);
  const [extra, setExtra] = useState<Set<string>>(new Set());
  const rows = flattenTree(tree.data ?? []);
  const menuPermissions = new Set(rows.map((r) => r.node.permission).filter((p): p is string => p !== null));
  // What a matrix can grant besides menus: the permissions no menu carries (writes), held by the caller.
  const mine = me?.permissions ?? [];
  const grantable = PERMISSIONS.filter((p) => !menuPermissions.has(p) && (mine.includes('*') || mine.includes(p)));

  useEffect(() => {
    if (current.data && menuIds === null) {
      setMenuIds(new Set(current.data.menuIds));
      setExtra(new Set(current.data.permissions.filter((p) => !menuPermissions.has(p))));
    }
  }, [current.data, menuIds, menuPermissions]);

  const toggle = (node: MenuItem, on: boolean) =>
    setMenuIds((ids) => {
      const next = new Set(ids ?? []);
      for (const id of subtreeIds(node)) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const submit = async () => {
    try {
      await save({ roleId: props.role.id, menuIds: [...(menuIds ?? [])], permissions: [...extra] }).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };

  return (
    <Dialog isOpen onClose={props.onClose} title={t('roles.matrixTitle', { name: props.role.name })} style={{ width: DIALOG_WIDTH.lg }}>
      <DialogBody>
        {(tree.isLoading || current.isLoading || menuIds === null) && !tree.error && !current.error ? (
          <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />
        ) : tree.error || current.error ? (
          <NonIdealState icon="error" title={t('common.loadFailed')} />
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
            <div role="group" aria-label={t('roles.menus')} data-testid="admin-matrix-menus">
              <H6>{t('roles.menus')}</H6>
              {rows.map(({ node, depth }) => (
                <div key={node.id} style={{ paddingLeft: depth * 20 }}>
                  <Checkbox
                    label={menuLabel(node, t as (k: string) => string)}
                    checked={menuIds!.has(node.id)}
                    onChange={(e) => toggle(node, (e.target as HTMLInputElement).checked)}
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
                  onChange={(e) =>
                    setExtra((s) => {
                      const next = new Set(s);
                      if ((e.target as HTMLInputElement).checked) next.add(p);
                      else next.delete(p);
                      return next;
                    })
                  }
                />
              ))}
            </div>
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button intent="primary" loading={saving.isLoading} disabled={menuIds === null} onClick={() => void submit()} data-testid="admin-matrix-save">
              {t('common.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
