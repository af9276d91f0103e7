import { useState } from 'react';
import { Alert, Button, ButtonGroup, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, NonIdealState, NumericInput, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, roleCreateSchema, type RoleItem } from '@decisio/domain';
import { useCurrentUser, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { RolePermissionDialog } from './RolePermissionDialog';
import { errorText, LoadState, PanelBody } from './shared';

/**
 * `/admin/roles`: the roles the caller sees (shared ones and their tenant's), their permissions;
 * create, rename, delete, and the menu/permission matrix of a role.
 */
export function RolesPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const notify = useNotify();
  const list = adminApi.endpoints['admin/roles'].useQuery();
  const [remove] = adminApi.endpoints['admin/deleteRole'].useMutation();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ role: RoleItem | null } | null>(null);
  const [matrix, setMatrix] = useState<RoleItem | null>(null);
  const [deleting, setDeleting] = useState<RoleItem | null>(null);
  const k = keyword.trim().toLowerCase();
  const rows = (list.data ?? []).filter((r) => !k || r.code.toLowerCase().includes(k) || r.name.toLowerCase().includes(k));

  return (
    <PanelBody testId="admin-roles-panel">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <InputGroup leftIcon="search" placeholder={t('roles.search')} aria-label={t('roles.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} />
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('common.refresh')} title={t('common.refresh')} />
        <Button icon="add" intent="primary" onClick={() => setEditing({ role: null })} data-testid="admin-roles-add">
          {t('roles.add')}
        </Button>
      </div>
      <LoadState loading={list.isLoading} error={list.error} onRetry={() => void list.refetch()} />
      {list.data && rows.length === 0 && <NonIdealState icon="key" title={k ? t('common.noMatch') : t('roles.empty')} />}
      {rows.length > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }} data-testid="admin-roles-table">
          <thead>
            <tr>
              <th>{t('roles.name')}</th>
              <th>{t('roles.code')}</th>
              <th>{t('roles.scope')}</th>
              <th>{t('roles.permissions')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="admin-role-row">
                <td>{r.name}</td>
                <td>
                  <code>{r.code}</code>
                </td>
                <td>{r.isSystem ? <Tag intent="primary">{t('roles.system')}</Tag> : <Tag minimal>{t(r.tenantId ? 'roles.tenantScope' : 'roles.shared')}</Tag>}</td>
                <td style={{ maxWidth: 360 }}>
                  {r.permissions.map((p) => (
                    <Tag key={p} minimal style={{ margin: 2 }}>
                      {p === '*' ? t('roles.all') : p}
                    </Tag>
                  ))}
                </td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="th-list" disabled={r.isSystem} onClick={() => setMatrix(r)} data-testid="admin-role-matrix">
                      {t('roles.matrix')}
                    </Button>
                    <Button small icon="edit" disabled={r.isSystem} onClick={() => setEditing({ role: r })}>
                      {t('common.edit')}
                    </Button>
                    <Button small icon="trash" intent="danger" disabled={r.isSystem} onClick={() => setDeleting(r)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && <RoleDialog role={editing.role} onClose={() => setEditing(null)} onCreated={(r) => setMatrix(r)} />}
      {matrix && <RolePermissionDialog key={matrix.id} role={matrix} onClose={() => setMatrix(null)} />}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const r = deleting!;
          setDeleting(null);
          remove({ id: r.id })
            .unwrap()
            .then(() => notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {deleting ? t('roles.deleteConfirm', { name: deleting.name }) : null}
      </Alert>
    </PanelBody>
  );
}

/** Create or rename a role; system admins choose whether a new one is shared by every tenant. */
function RoleDialog(props: { role: RoleItem | null; onClose(): void; onCreated(role: RoleItem): void }) {
  const { t } = useAdminT();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const [code, setCode] = useState(props.role?.code ?? '');
  const [name, setName] = useState(props.role?.name ?? '');
  const [sort, setSort] = useState(props.role?.sort ?? 100);
  const [shared, setShared] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [create, creating] = adminApi.endpoints['admin/createRole'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateRole'].useMutation();

  const save = async () => {
    const parsed = roleCreateSchema.safeParse({ code: code.trim(), name: name.trim(), sort });
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => String(i.path[0])));
      return;
    }
    try {
      if (props.role) await update({ id: props.role.id, ...parsed.data }).unwrap();
      else {
        const created = await create({ ...parsed.data, ...(me?.isSystemRole ? { tenantId: shared ? null : me.tenantId } : {}) }).unwrap();
        props.onCreated(created);
      }
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };
  const bad = (f: string) => (invalid.includes(f) ? { intent: 'danger' as const, helperText: t('roles.invalid') } : {});
  return (
    <Dialog isOpen onClose={props.onClose} title={props.role ? t('roles.editTitle') : t('roles.addTitle')} style={{ width: DIALOG_WIDTH.sm }}>
      <DialogBody>
        <form
          id="admin-role-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormGroup label={t('roles.name')} labelFor="admin-role-name" {...bad('name')}>
            <InputGroup id="admin-role-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          </FormGroup>
          <FormGroup label={t('roles.code')} labelFor="admin-role-code" helperText={invalid.includes('code') ? t('roles.invalid') : t('roles.codeHelp')} intent={invalid.includes('code') ? 'danger' : 'none'}>
            <InputGroup id="admin-role-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </FormGroup>
          <FormGroup label={t('roles.sort')} labelFor="admin-role-sort">
            <NumericInput id="admin-role-sort" min={0} max={100000} value={sort} onValueChange={(v) => setSort(Number.isFinite(v) ? v : 0)} />
          </FormGroup>
          {me?.isSystemRole && !props.role && (
            <RadioGroup label={t('roles.scope')} selectedValue={shared ? 'shared' : 'own'} onChange={(e) => setShared((e.target as HTMLInputElement).value === 'shared')}>
              <Radio value="shared" label={t('roles.shared')} />
              <Radio value="own" label={t('roles.tenantScope')} />
            </RadioGroup>
          )}
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button type="submit" form="admin-role-form" intent="primary" loading={creating.isLoading || updating.isLoading} data-testid="admin-role-save">
              {t('common.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
