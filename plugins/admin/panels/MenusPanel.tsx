import { useState } from 'react';
import { Checkbox, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, menuCreateSchema, PERMISSIONS, type MenuItem } from '@decisio/domain';
import { CrudFormDialog, CrudScreen, invalidField, NumericInput, type PanelProps, useCrudRun } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { hasSeededName, menuLabel } from './menu-label';
import { flattenTree, treeRowActions, useCan, useCrudLabels, useFieldRule } from './shared';

type Row = { node: MenuItem; depth: number };

/**
 * `/admin/menus`: the menu catalogue as a tree (shared by every tenant): a page has a path and
 * the permission of the calls behind it; roles pick menus in their matrix. System admins create,
 * edit, hide and delete menus; without `menus:write` (tenant admins) the screen only lists them.
 */
export function MenusPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const tree = adminApi.endpoints['admin/menuTree'].useQuery();
  const [remove] = adminApi.endpoints['admin/deleteMenu'].useMutation();
  const [editing, setEditing] = useState<{ menu: MenuItem | null; parentId: string | null } | null>(null);
  const canWrite = useCan('menus:write');
  const rows = flattenTree(tree.data ?? []);
  const label = (m: MenuItem) => menuLabel(m, t as (k: string) => string);

  return (
    <CrudScreen<Row>
      testId="admin-menus-panel"
      labels={labels}
      loading={tree.isLoading}
      error={tree.error}
      onRefresh={() => void tree.refetch()}
      add={canWrite && { label: t('menus.add'), onClick: () => setEditing({ menu: null, parentId: null }), testId: 'admin-menus-add' }}
      rows={tree.data ? rows : undefined}
      empty={{ icon: 'menu', title: t('menus.empty') }}
      tableTestId="admin-menus-table"
      rowTestId="admin-menu-row"
      rowKey={(r) => r.node.id}
      columns={[
        {
          key: 'name',
          header: t('menus.name'),
          style: (r) => ({ paddingLeft: 8 + r.depth * 20 }),
          cell: ({ node }) => (
            <>
              {label(node)}
              {node.hidden && (
                <Tag minimal style={{ marginLeft: 6 }}>
                  {t('menus.hidden')}
                </Tag>
              )}
            </>
          ),
        },
        { key: 'code', header: t('menus.code'), cell: ({ node }) => <code>{node.code}</code> },
        { key: 'path', header: t('menus.path'), cell: ({ node }) => node.path ?? <Tag minimal>{t('menus.group')}</Tag> },
        { key: 'permission', header: t('menus.permission'), cell: ({ node }) => node.permission ?? '' },
        { key: 'sort', header: t('menus.sort'), cell: ({ node }) => node.sort },
      ]}
      actions={treeRowActions<MenuItem>(canWrite, {
        addChild: t('menus.addChild'),
        open: (menu, parentId) => setEditing({ menu, parentId }),
        confirm: (m) => t('menus.deleteConfirm', { name: label(m) }),
        remove: (m) => remove({ id: m.id }).unwrap(),
      })}
    >
      {editing && <MenuDialog menu={editing.menu} parentId={editing.parentId} all={rows.map((r) => r.node)} onClose={() => setEditing(null)} />}
    </CrudScreen>
  );
}

function MenuDialog(props: { menu: MenuItem | null; parentId: string | null; all: MenuItem[]; onClose(): void }) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const run = useCrudRun(labels.failed);
  const m = props.menu;
  const [code, setCode] = useState(m?.code ?? '');
  // A seeded menu's stored name is a key (menu.<code>): the field shows its label, and saving it
  // unchanged keeps the key, so the label still follows the interface language.
  const seededLabel = m && hasSeededName(m) ? menuLabel(m, t as (k: string) => string) : null;
  const [name, setName] = useState(seededLabel ?? m?.name ?? '');
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
    const body = { code: code.trim(), name: m && seededLabel !== null && name.trim() === seededLabel ? m.name : name.trim(), path: path.trim() || null, icon: icon.trim() || null, permission: permission || null, sort, hidden, parentId: parentId || null };
    const parsed = menuCreateSchema.safeParse(body);
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => String(i.path[0])));
      return;
    }
    const { code: _code, ...rest } = parsed.data;
    if (await run(() => (m ? update({ id: m.id, ...rest }).unwrap() : create(parsed.data).unwrap()), t('common.saved'))) props.onClose();
  };
  const rule = useFieldRule('menus');
  const bad = (f: string) => invalidField(invalid, f, rule(f));
  return (
    <CrudFormDialog
      title={m ? t('menus.editTitle') : t('menus.addTitle')}
      width={DIALOG_WIDTH.md}
      formId="admin-menu-form"
      onClose={props.onClose}
      onSubmit={() => void save()}
      saving={creating.isLoading || updating.isLoading}
      labels={labels}
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
                {menuLabel(x, t as (k: string) => string)}
              </option>
            ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('menus.path')} labelFor="admin-menu-path" helperText={invalid.includes('path') ? rule('path') : t('menus.pathHelp')} intent={invalid.includes('path') ? 'danger' : 'none'}>
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
      <FormGroup label={t('menus.icon')} labelFor="admin-menu-icon" {...bad('icon')}>
        <InputGroup id="admin-menu-icon" value={icon} onChange={(e) => setIcon(e.target.value)} />
      </FormGroup>
      <FormGroup label={t('menus.sort')} labelFor="admin-menu-sort" {...bad('sort')}>
        <NumericInput id="admin-menu-sort" min={0} max={100000} value={sort} onValueChange={(v) => setSort(Number.isFinite(v) ? v : 0)} />
      </FormGroup>
      <Checkbox label={t('menus.hidden')} checked={hidden} onChange={(e) => setHidden((e.target as HTMLInputElement).checked)} />
    </CrudFormDialog>
  );
}
