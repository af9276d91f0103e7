import { useState } from 'react';
import { Button, FormGroup, InputGroup, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, roleCreateSchema, type RoleItem } from '@decisio/domain';
import { CrudFormDialog, CrudScreen, invalidField, NumericInput, type PanelProps, useCrudRun, useCurrentUser } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { RolePermissionDialog } from './RolePermissionDialog';
import { hasSeededName, useBuiltinNames, useCan, useCrudLabels, useFieldRule } from './shared';

/** Codes of the seeded roles every tenant shares: they are never deleted (the server refuses). */
const BUILTIN_ROLE_CODES = ['admin', 'tenant-admin', 'user'];

/**
 * `/admin/roles`: the roles the caller sees (shared ones and their tenant's), their permissions;
 * create, rename, delete, and the menu/permission matrix of a role. Without `roles:write` the
 * screen only lists them; the buttons the server would refuse are disabled with the reason as
 * tooltip: the system role's, a shared role's for tenant admins, deleting a built-in role.
 */
export function RolesPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const list = adminApi.endpoints['admin/roles'].useQuery();
  const names = useBuiltinNames();
  const canWrite = useCan('roles:write');
  const system = Boolean(useCurrentUser().data?.isSystemRole);
  /** Why a role cannot be changed by the caller (edit, matrix, delete), or false. */
  const locked = (r: RoleItem) => (r.isSystem ? t('roles.systemLocked') : r.tenantId === null && !system ? t('roles.sharedLocked') : false);
  const [remove] = adminApi.endpoints['admin/deleteRole'].useMutation();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ role: RoleItem | null } | null>(null);
  const [matrix, setMatrix] = useState<RoleItem | null>(null);
  const k = keyword.trim().toLowerCase();
  const rows = (list.data ?? []).filter((r) => !k || r.code.toLowerCase().includes(k) || names.role(r).toLowerCase().includes(k));

  return (
    <CrudScreen<RoleItem>
      testId="admin-roles-panel"
      labels={labels}
      filters={<InputGroup leftIcon="search" placeholder={t('roles.search')} aria-label={t('roles.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} />}
      loading={list.isLoading}
      error={list.error}
      onRefresh={() => void list.refetch()}
      add={canWrite && { label: t('roles.add'), onClick: () => setEditing({ role: null }), testId: 'admin-roles-add' }}
      rows={list.data ? rows : undefined}
      empty={{ icon: 'key', title: k ? t('common.noMatch') : t('roles.empty') }}
      tableTestId="admin-roles-table"
      rowTestId="admin-role-row"
      rowKey={(r) => r.id}
      columns={[
        { key: 'name', header: t('roles.name'), cell: (r) => names.role(r) },
        { key: 'code', header: t('roles.code'), cell: (r) => <code>{r.code}</code> },
        { key: 'scope', header: t('roles.scope'), cell: (r) => (r.isSystem ? <Tag intent="primary">{t('roles.system')}</Tag> : <Tag minimal>{t(r.tenantId ? 'roles.tenantScope' : 'roles.shared')}</Tag>) },
        {
          key: 'permissions',
          header: t('roles.permissions'),
          style: { maxWidth: 360 },
          cell: (r) =>
            r.permissions.map((p) => (
              <Tag key={p} minimal style={{ margin: 2 }}>
                {p === '*' ? t('roles.all') : p}
              </Tag>
            )),
        },
      ]}
      actions={
        canWrite
          ? {
              lead: (r) => {
                const lock = locked(r);
                return (
                  <Button small icon="th-list" disabled={Boolean(lock)} title={lock || undefined} onClick={() => setMatrix(r)} data-testid="admin-role-matrix">
                    {t('roles.matrix')}
                  </Button>
                );
              },
              edit: (r) => setEditing({ role: r }),
              delete: { confirm: (r) => t('roles.deleteConfirm', { name: names.role(r) }), run: (r) => remove({ id: r.id }).unwrap() },
              locked,
              deleteLocked: (r) => r.tenantId === null && BUILTIN_ROLE_CODES.includes(r.code) && t('roles.builtinLocked'),
            }
          : undefined
      }
    >
      {editing && <RoleDialog role={editing.role} onClose={() => setEditing(null)} onCreated={(r) => setMatrix(r)} />}
      {matrix && <RolePermissionDialog key={matrix.id} role={matrix} onClose={() => setMatrix(null)} />}
    </CrudScreen>
  );
}

/** Create or rename a role; system admins choose whether a new one is shared by every tenant. */
function RoleDialog(props: { role: RoleItem | null; onClose(): void; onCreated(role: RoleItem): void }) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const run = useCrudRun(labels.failed);
  const me = useCurrentUser().data;
  const names = useBuiltinNames();
  const r = props.role;
  // A seeded role's stored name is a key (role.<code>): the field shows its label, and saving it
  // unchanged (code too) keeps the key, so the label still follows the interface language.
  const seededLabel = r && hasSeededName('role', r) ? names.role(r) : null;
  const [code, setCode] = useState(r?.code ?? '');
  const [name, setName] = useState(seededLabel ?? r?.name ?? '');
  const [sort, setSort] = useState(r?.sort ?? 100);
  const [shared, setShared] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [create, creating] = adminApi.endpoints['admin/createRole'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateRole'].useMutation();

  const save = async () => {
    const keepKey = r && seededLabel !== null && name.trim() === seededLabel && code.trim() === r.code;
    const parsed = roleCreateSchema.safeParse({ code: code.trim(), name: keepKey ? r.name : name.trim(), sort });
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => String(i.path[0])));
      return;
    }
    const body = parsed.data;
    const ok = await run(async () => {
      if (r) await update({ id: r.id, ...body }).unwrap();
      else props.onCreated(await create({ ...body, ...(me?.isSystemRole ? { tenantId: shared ? null : me.tenantId } : {}) }).unwrap());
    }, t('common.saved'));
    if (ok) props.onClose();
  };
  const rule = useFieldRule('roles');
  const bad = (f: string) => invalidField(invalid, f, rule(f));
  return (
    <CrudFormDialog
      title={r ? t('roles.editTitle') : t('roles.addTitle')}
      width={DIALOG_WIDTH.sm}
      formId="admin-role-form"
      onClose={props.onClose}
      onSubmit={() => void save()}
      saving={creating.isLoading || updating.isLoading}
      saveTestId="admin-role-save"
      labels={labels}
    >
      <FormGroup label={t('roles.name')} labelFor="admin-role-name" {...bad('name')}>
        <InputGroup id="admin-role-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </FormGroup>
      <FormGroup label={t('roles.code')} labelFor="admin-role-code" helperText={invalid.includes('code') ? rule('code') : t('roles.codeHelp')} intent={invalid.includes('code') ? 'danger' : 'none'}>
        <InputGroup id="admin-role-code" value={code} onChange={(e) => setCode(e.target.value)} />
      </FormGroup>
      <FormGroup label={t('roles.sort')} labelFor="admin-role-sort" {...bad('sort')}>
        <NumericInput id="admin-role-sort" min={0} max={100000} value={sort} onValueChange={(v) => setSort(Number.isFinite(v) ? v : 0)} />
      </FormGroup>
      {me?.isSystemRole && !r && (
        <RadioGroup label={t('roles.scope')} selectedValue={shared ? 'shared' : 'own'} onChange={(e) => setShared((e.target as HTMLInputElement).value === 'shared')}>
          <Radio value="shared" label={t('roles.shared')} />
          <Radio value="own" label={t('roles.tenantScope')} />
        </RadioGroup>
      )}
    </CrudFormDialog>
  );
}
