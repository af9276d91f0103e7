import { useState } from 'react';
import { Button, DialogBody, DialogFooter, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, type AdminUserListItem, type TemporaryPasswordResponse } from '@decisio/domain';
import { Dialog, CrudConfirm, CrudScreen, pageCount, useCrudRun, useCurrentUser, useListSearch, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { errorText, IdSelect, useBuiltinNames, useCan, useCrudLabels } from './shared';
import { UserDialog } from './UserDialog';

const PAGE_SIZE = 20;

/**
 * `/admin/users`: the accounts of the tenant (system admins pick the tenant), filtered by
 * keyword, status, role and organisation; add, edit (roles, organisation, tenant), stop/start,
 * reset the password (a temporary one, shown once) and delete.
 */
export function UsersPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const names = useBuiltinNames();
  const canWrite = useCan('users:write');
  /**
   * Why the caller cannot change an account here, or false: the server refuses one's own account,
   * and a system administrator's account to others.
   */
  const selfLocked = (u: AdminUserListItem) =>
    u.userId === me?.userId ? t('users.selfLocked') : !me?.isSystemRole && u.roleList.some((r) => r.code === 'admin') ? t('users.systemLocked') : false;
  const [status, setStatus] = useState('');
  const [roleId, setRoleId] = useState('');
  const [orgId, setOrgId] = useState('');
  const [tenantId, setTenantId] = useState('');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [status, roleId, orgId, tenantId] });
  const list = adminApi.endpoints['admin/users'].useQuery({
    page,
    pageSize: PAGE_SIZE,
    keyword: search || undefined,
    status: (status || undefined) as 'enabled' | 'disabled' | undefined,
    roleId: roleId || undefined,
    orgId: orgId || undefined,
    tenantId: tenantId || undefined,
  });
  const roles = adminApi.endpoints['admin/roles'].useQuery();
  const orgs = adminApi.endpoints['admin/orgList'].useQuery({ tenantId: tenantId || undefined });
  const tenants = adminApi.endpoints['admin/tenants'].useQuery(undefined, { skip: !me?.isSystemRole });
  const [stop] = adminApi.endpoints['admin/stopUser'].useMutation();
  const [start] = adminApi.endpoints['admin/startUser'].useMutation();
  const [reset] = adminApi.endpoints['admin/resetPassword'].useMutation();
  const [remove] = adminApi.endpoints['admin/deleteUser'].useMutation();
  const [editing, setEditing] = useState<{ user: AdminUserListItem | null } | null>(null);
  const [resetting, setResetting] = useState<AdminUserListItem | null>(null);
  const [temporary, setTemporary] = useState<(TemporaryPasswordResponse & { username: string }) | null>(null);
  const run = useCrudRun(labels.failed);
  const data = list.data;
  const pages = pageCount(data?.total ?? 0, PAGE_SIZE);
  const filtered = Boolean(search || status || roleId || orgId);

  return (
    <CrudScreen<AdminUserListItem>
      testId="admin-users-panel"
      labels={labels}
      filters={
        <>
            <InputGroup leftIcon="search" placeholder={t('users.search')} aria-label={t('users.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} data-testid="admin-users-search" />
            <HTMLSelect value={status} onChange={(e) => setStatus(e.target.value)} aria-label={t('users.status')}>
              <option value="">{t('users.allStatuses')}</option>
              <option value="enabled">{t('users.enabled')}</option>
              <option value="disabled">{t('users.disabled')}</option>
            </HTMLSelect>
            <IdSelect value={roleId} onChange={setRoleId} none={t('users.allRoles')} items={roles.data?.map((r) => ({ id: r.id, name: names.role(r) }))} aria-label={t('users.role')} />
            <IdSelect value={orgId} onChange={setOrgId} none={t('users.allOrgs')} items={orgs.currentData} aria-label={t('users.org')} />
            {me?.isSystemRole && (
              <IdSelect
                value={tenantId}
                onChange={(id) => {
                  setTenantId(id);
                  setOrgId('');
                }}
                none={t('users.ownTenant')}
                items={tenants.data?.map((x) => ({ id: x.id, name: names.tenant(x) }))}
                aria-label={t('users.tenant')}
                data-testid="admin-users-tenant"
              />
            )}
        </>
      }
      loading={list.isLoading}
      error={list.error}
      onRefresh={() => void list.refetch()}
      add={canWrite && { label: t('users.add'), icon: 'new-person', onClick: () => setEditing({ user: null }), testId: 'admin-users-add' }}
      rows={data?.rows}
      total={data?.total}
      empty={{ icon: 'people', title: filtered ? t('common.noMatch') : t('users.empty') }}
      tableTestId="admin-users-table"
      rowTestId="admin-user-row"
      rowKey={(u) => u.userId}
      columns={[
        { key: 'username', header: t('users.username'), cell: (u) => u.username },
        { key: 'nickname', header: t('users.nickname'), cell: (u) => u.nickname ?? '' },
        { key: 'email', header: t('users.email'), cell: (u) => u.email ?? '' },
        { key: 'mobile', header: t('users.mobile'), cell: (u) => u.mobile ?? '' },
        {
          key: 'roles',
          header: t('users.roles'),
          cell: (u) =>
            u.roleList.map((r) => (
              <Tag key={r.id} minimal style={{ marginRight: 4 }}>
                {names.role(r)}
              </Tag>
            )),
        },
        { key: 'org', header: t('users.org'), cell: (u) => orgs.data?.find((o) => o.id === u.orgId)?.name ?? '' },
        {
          key: 'status',
          header: t('users.status'),
          cell: (u) => (
            <>
              <Tag minimal intent={u.status === 'enabled' ? 'success' : 'danger'}>{t(u.status === 'enabled' ? 'users.enabled' : 'users.disabled')}</Tag>
              {u.mustChangePassword && (
                <Tag minimal intent="warning" style={{ marginLeft: 4 }}>
                  {t('users.mustChange')}
                </Tag>
              )}
            </>
          ),
        },
      ]}
      actions={
        canWrite
          ? {
              edit: (u) => setEditing({ user: u }),
              more: (u) => (
                <>
                  {u.status === 'enabled' ? (
                    <Button small icon="disable" disabled={Boolean(selfLocked(u))} title={selfLocked(u) || undefined} onClick={() => void run(() => stop({ userId: u.userId }).unwrap(), t('users.stopped'))}>
                      {t('users.stop')}
                    </Button>
                  ) : (
                    <Button small icon="play" onClick={() => void run(() => start({ userId: u.userId }).unwrap(), t('users.started'))}>
                      {t('users.start')}
                    </Button>
                  )}
                  <Button small icon="key" disabled={Boolean(selfLocked(u))} title={selfLocked(u) || undefined} onClick={() => setResetting(u)}>
                    {t('users.reset')}
                  </Button>
                </>
              ),
              delete: { confirm: (u) => t('users.deleteConfirm', { name: u.username }), run: (u) => remove({ userId: u.userId }).unwrap() },
              locked: selfLocked,
            }
          : undefined
      }
      pager={{ page, pages, onPage: setPage, text: t('common.page', { page, pages, total: data?.total ?? 0 }) }}
    >
      {editing && (
        <UserDialog
          key={editing.user?.userId ?? 'new'}
          user={editing.user}
          defaultTenantId={tenantId || undefined}
          onClose={() => setEditing(null)}
          onCreated={(r, username) => setTemporary({ ...r, username })}
        />
      )}
      <CrudConfirm
        target={resetting}
        intent="warning"
        icon="key"
        confirmLabel={t('users.reset')}
        cancelLabel={t('common.cancel')}
        onCancel={() => setResetting(null)}
        onConfirm={(u) => {
          setResetting(null);
          void reset({ userId: u.userId })
            .unwrap()
            .then((r) => setTemporary({ ...r, username: u.username }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {(u) => t('users.resetConfirm', { name: u.username })}
      </CrudConfirm>
      <Dialog isOpen={temporary !== null} onClose={() => setTemporary(null)} title={t('users.temporaryTitle')} style={{ width: DIALOG_WIDTH.sm }}>
        <DialogBody>
          <p>{temporary ? t('users.temporaryText', { name: temporary.username }) : null}</p>
          <InputGroup readOnly value={temporary?.temporaryPassword ?? ''} aria-label={t('users.temporaryTitle')} data-testid="admin-temporary-password" onFocus={(e) => e.target.select()} />
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" onClick={() => setTemporary(null)}>{t('common.close')}</Button>} />
      </Dialog>
    </CrudScreen>
  );
}
