import { useState } from 'react';
import { Alert, Button, ButtonGroup, Dialog, DialogBody, DialogFooter, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, type AdminUserListItem, type TemporaryPasswordResponse } from '@decisio/domain';
import { pageCount, Pager, useCurrentUser, useListSearch, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { errorText, LoadState, PanelBody } from './shared';
import { UserDialog } from './UserDialog';

const PAGE_SIZE = 20;

/**
 * `/admin/users`: the accounts of the tenant (system admins pick the tenant), filtered by
 * keyword, status, role and organisation; add, edit (roles, organisation, tenant), stop/start,
 * reset the password (a temporary one, shown once) and delete.
 */
export function UsersPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const notify = useNotify();
  const me = useCurrentUser().data;
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
  const [remove, removal] = adminApi.endpoints['admin/deleteUser'].useMutation();
  const [editing, setEditing] = useState<{ user: AdminUserListItem | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminUserListItem | null>(null);
  const [resetting, setResetting] = useState<AdminUserListItem | null>(null);
  const [temporary, setTemporary] = useState<(TemporaryPasswordResponse & { username: string }) | null>(null);

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      notify({ message: done, intent: 'success', icon: 'tick' });
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };
  const data = list.data;
  const filtered = Boolean(search || status || roleId || orgId);

  return (
    <PanelBody testId="admin-users-panel">
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <InputGroup leftIcon="search" placeholder={t('users.search')} aria-label={t('users.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} data-testid="admin-users-search" />
        <HTMLSelect value={status} onChange={(e) => setStatus(e.target.value)} aria-label={t('users.status')}>
          <option value="">{t('users.allStatuses')}</option>
          <option value="enabled">{t('users.enabled')}</option>
          <option value="disabled">{t('users.disabled')}</option>
        </HTMLSelect>
        <HTMLSelect value={roleId} onChange={(e) => setRoleId(e.target.value)} aria-label={t('users.role')}>
          <option value="">{t('users.allRoles')}</option>
          {(roles.data ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={orgId} onChange={(e) => setOrgId(e.target.value)} aria-label={t('users.org')}>
          <option value="">{t('users.allOrgs')}</option>
          {(orgs.data ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </HTMLSelect>
        {me?.isSystemRole && (
          <HTMLSelect
            value={tenantId}
            onChange={(e) => {
              setTenantId(e.target.value);
              setOrgId('');
            }}
            aria-label={t('users.tenant')}
            data-testid="admin-users-tenant"
          >
            <option value="">{t('users.ownTenant')}</option>
            {(tenants.data ?? []).map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </HTMLSelect>
        )}
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('common.refresh')} title={t('common.refresh')} />
        <Button icon="new-person" intent="primary" onClick={() => setEditing({ user: null })} data-testid="admin-users-add">
          {t('users.add')}
        </Button>
      </div>
      <LoadState loading={list.isLoading} error={list.error} onRetry={() => void list.refetch()} />
      {data && data.total === 0 && <NonIdealState icon="people" title={filtered ? t('common.noMatch') : t('users.empty')} />}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped compact style={{ width: '100%' }} data-testid="admin-users-table">
            <thead>
              <tr>
                <th>{t('users.username')}</th>
                <th>{t('users.nickname')}</th>
                <th>{t('users.email')}</th>
                <th>{t('users.mobile')}</th>
                <th>{t('users.roles')}</th>
                <th>{t('users.org')}</th>
                <th>{t('users.status')}</th>
                <th>{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((u) => (
                <tr key={u.userId} data-testid="admin-user-row">
                  <td>{u.username}</td>
                  <td>{u.nickname ?? ''}</td>
                  <td>{u.email ?? ''}</td>
                  <td>{u.mobile ?? ''}</td>
                  <td>
                    {u.roleList.map((r) => (
                      <Tag key={r.id} minimal style={{ marginRight: 4 }}>
                        {r.name}
                      </Tag>
                    ))}
                  </td>
                  <td>{orgs.data?.find((o) => o.id === u.orgId)?.name ?? ''}</td>
                  <td>
                    <Tag minimal intent={u.status === 'enabled' ? 'success' : 'danger'}>{t(u.status === 'enabled' ? 'users.enabled' : 'users.disabled')}</Tag>
                    {u.mustChangePassword && (
                      <Tag minimal intent="warning" style={{ marginLeft: 4 }}>
                        {t('users.mustChange')}
                      </Tag>
                    )}
                  </td>
                  <td>
                    <ButtonGroup minimal>
                      <Button small icon="edit" onClick={() => setEditing({ user: u })}>
                        {t('common.edit')}
                      </Button>
                      {u.status === 'enabled' ? (
                        <Button small icon="disable" onClick={() => void run(() => stop({ userId: u.userId }).unwrap(), t('users.stopped'))}>
                          {t('users.stop')}
                        </Button>
                      ) : (
                        <Button small icon="play" onClick={() => void run(() => start({ userId: u.userId }).unwrap(), t('users.started'))}>
                          {t('users.start')}
                        </Button>
                      )}
                      <Button small icon="key" onClick={() => setResetting(u)}>
                        {t('users.reset')}
                      </Button>
                      <Button small icon="trash" intent="danger" onClick={() => setDeleting(u)}>
                        {t('common.delete')}
                      </Button>
                    </ButtonGroup>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager small page={page} pages={pageCount(data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('common.prev')} nextLabel={t('common.next')}>
            {t('common.page', { page, pages: pageCount(data.total, PAGE_SIZE), total: data.total })}
          </Pager>
        </>
      )}

      {editing && (
        <UserDialog
          key={editing.user?.userId ?? 'new'}
          user={editing.user}
          defaultTenantId={tenantId || undefined}
          onClose={() => setEditing(null)}
          onCreated={(r, username) => setTemporary({ ...r, username })}
        />
      )}
      <Alert
        isOpen={resetting !== null}
        intent="warning"
        icon="key"
        confirmButtonText={t('users.reset')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setResetting(null)}
        onConfirm={() => {
          const u = resetting!;
          setResetting(null);
          void reset({ userId: u.userId })
            .unwrap()
            .then((r) => setTemporary({ ...r, username: u.username }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {resetting ? t('users.resetConfirm', { name: resetting.username }) : null}
      </Alert>
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        loading={removal.isLoading}
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const u = deleting!;
          setDeleting(null);
          void run(() => remove({ userId: u.userId }).unwrap(), t('common.deleted'));
        }}
      >
        {deleting ? t('users.deleteConfirm', { name: deleting.username }) : null}
      </Alert>
      <Dialog isOpen={temporary !== null} onClose={() => setTemporary(null)} title={t('users.temporaryTitle')} style={{ width: DIALOG_WIDTH.sm }}>
        <DialogBody>
          <p>{temporary ? t('users.temporaryText', { name: temporary.username }) : null}</p>
          <InputGroup readOnly value={temporary?.temporaryPassword ?? ''} aria-label={t('users.temporaryTitle')} data-testid="admin-temporary-password" onFocus={(e) => e.target.select()} />
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" onClick={() => setTemporary(null)}>{t('common.close')}</Button>} />
      </Dialog>
    </PanelBody>
  );
}
