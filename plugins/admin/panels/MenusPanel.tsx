import { useState } from 'react';
import { Alert, Button, ButtonGroup, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, NumericInput, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, menuCreateSchema, PERMISSIONS, type MenuItem } from '@decisio/domain';
import { useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { menuLabel } from './menu-label';
import { errorText, flattenTree, LoadState, PanelBody } from './shared';

/**
 * `/admin/menus`: the menu catalogue as a tree (shared by every tenant): a page has a path and
 * the permission of the calls behind it; roles pick menus in their matrix. System admins create,
 * edit, hide and delete menus.
 */
export function MenusPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const notify = useNotify();
  const tree = adminApi.endpoints['admin/menuTree'].useQuery();
  const [remove] = adminApi.endpoints['admin/deleteMenu'].useMutation();
  const [editing, setEditing] = useState<{ menu: MenuItem | null; parentId: string | null } | null>(null);
  const [deleting, setDeleting] = useState<MenuItem | null>(null);
  const rows = flattenTree(tree.data ?? []);
  const label = (m: MenuItem) => menuLabel(m, t as (k: string) => string);

  return (
    <PanelBody testId="admin-menus-panel">
      <div style={{ display: 'flex', gap: 8 }}>
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void tree.refetch()} aria-label={t('common.refresh')} title={t('common.refresh')} />
        <Button icon="add" intent="primary" onClick={() => setEditing({ menu: null, parentId: null })}>
          {t('menus.add')}
        </Button>
      </div>
      <LoadState loading={tree.isLoading} error={tree.error} onRetry={() => void tree.refetch()} />
      {tree.data && rows.length === 0 && <NonIdealState icon="menu" title={t('menus.empty')} />}
      {rows.length > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }} data-testid="admin-menus-table">
          <thead>
            <tr>
              <th>{t('menus.name')}</th>
              <th>{t('menus.code')}</th>
              <th>{t('menus.path')}</th>
              <th>{t('menus.permission')}</th>
              <th>{t('menus.sort')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node, depth }) => (
              <tr key={node.id} data-testid="admin-menu-row">
                <td style={{ paddingLeft: 8 + depth * 20 }}>
                  {label(node)}
                  {node.hidden && (
                    <Tag minimal style={{ marginLeft: 6 }}>
                      {t('menus.hidden')}
                    </Tag>
                  )}
                </td>
                <td>
                  <code>{node.code}</code>
                </td>
                <td>{node.path ?? <Tag minimal>{t('menus.group')}</Tag>}</td>
                <td>{node.permission ?? ''}</td>
                <td>{node.sort}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="add" onClick={() => setEditing({ menu: null, parentId: node.id })}>
                      {t('menus.addChild')}
                    </Button>
                    <Button small icon="edit" onClick={() => setEditing({ menu: node, parentId: node.parentId })}>
                      {t('common.edit')}
                    </Button>
                    <Button small icon="trash" intent="danger" onClick={() => setDeleting(node)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && <MenuDialog menu={editing.menu} parentId={editing.parentId} all={rows.map((r) => r.node)} onClose={() => setEditing(null)} />}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const m = deleting!;
          setDeleting(null);
          remove({ id: m.id })
            .unwrap()
            .then(() => notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {deleting ? t('menus.deleteConfirm', { name: label(deleting) }) : null}
      </Alert>
    </PanelBody>
  );
}

function MenuDialog(props: { menu: MenuItem | null; parentId: string | null; all: MenuItem[]; onClose(): void }) {
  const { t } = useAdminT();
  const notify = useNotify();
  const m = props.menu;
  const [code, setCode] = useState(m?.code ?? '');
  const [name, setName] = useState(m?.name ?? '');
  const [path, setPath] = useState(m?.path ?? '');
  const [icon, setIcon] = useState(m?.icon ?? '');
  const [permission, setPermission] = useState(m?.permission ?? '');
  const [sort, setSort] = useState(m?.sort ?? 100);
  const [hidden, setHidden] = useState(m?.hidden ?? false);
  const [parentId, setParentId] = useState(props.parentId ?? '');
  const [invalid, setInvalid] = useState<string[]>([]);
  const [create, creating] = adminApi.endpoints['admin/createMenu'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateMenu'].useMutation();

  const save = async () => {
    const body = { code: code.trim(), name: name.trim(), path: path.trim() || null, icon: icon.trim() || null, permission: permission || null, sort, hidden, parentId: parentId || null };
    const parsed = menuCreateSchema.safeParse(body);
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => String(i.path[0])));
      return;
    }
    try {
      if (m) {
        const { code: _code, ...rest } = parsed.data;
        await update({ id: m.id, ...rest }).unwrap();
      } else await create(parsed.data).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };
  const bad = (f: string) => (invalid.includes(f) ? { intent: 'danger' as const, helperText: t('menus.invalid') } : {});
  return (
    <Dialog isOpen onClose={props.onClose} title={m ? t('menus.editTitle') : t('menus.addTitle')} style={{ width: DIALOG_WIDTH.md }}>
      <DialogBody>
        <form
          id="admin-menu-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormGroup label={t('menus.code')} labelFor="admin-menu-code" {...bad('code')}>
            <InputGroup id="admin-menu-code" value={code} disabled={m !== null} onChange={(e) => setCode(e.target.value)} autoFocus={m === null} />
          </FormGroup>
          <FormGroup label={t('menus.name')} labelFor="admin-menu-name" {...bad('name')}>
            <InputGroup id="admin-menu-name" value={name} onChange={(e) => setName(e.target.value)} />
          </FormGroup>
          <FormGroup label={t('menus.parent')} labelFor="admin-menu-parent" {...bad('parentId')}>
            <HTMLSelect id="admin-menu-parent" value={parentId} onChange={(e) => setParentId(e.target.value)}>
              <option value="">{t('menus.root')}</option>
              {props.all
                .filter((x) => x.id !== m?.id)
                .map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.code}
                  </option>
                ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('menus.path')} labelFor="admin-menu-path" helperText={invalid.includes('path') ? t('menus.invalid') : t('menus.pathHelp')} intent={invalid.includes('path') ? 'danger' : 'none'}>
            <InputGroup id="admin-menu-path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/admin/reports" />
          </FormGroup>
          <FormGroup label={t('menus.permission')} labelFor="admin-menu-permission">
            <HTMLSelect id="admin-menu-permission" value={permission} onChange={(e) => setPermission(e.target.value)}>
              <option value="">{t('menus.noPermission')}</option>
              {PERMISSIONS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('menus.icon')} labelFor="admin-menu-icon">
            <InputGroup id="admin-menu-icon" value={icon} onChange={(e) => setIcon(e.target.value)} />
          </FormGroup>
          <FormGroup label={t('menus.sort')} labelFor="admin-menu-sort">
            <NumericInput id="admin-menu-sort" min={0} max={100000} value={sort} onValueChange={(v) => setSort(Number.isFinite(v) ? v : 0)} />
          </FormGroup>
          <Checkbox label={t('menus.hidden')} checked={hidden} onChange={(e) => setHidden((e.target as HTMLInputElement).checked)} />
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button type="submit" form="admin-menu-form" intent="primary" loading={creating.isLoading || updating.isLoading}>
              {t('common.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
