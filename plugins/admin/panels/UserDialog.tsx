import { useState } from 'react';
import { Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { addUserRequestSchema, DIALOG_WIDTH, updateUserRequestSchema, type AdminUserListItem, type TemporaryPasswordResponse } from '@decisio/domain';
import { CrudFormDialog, useCurrentUser, useNotify } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { errorText, IdSelect, useBuiltinNames, useCrudLabels, useFieldRule } from './shared';

/**
 * Add or edit an account: username (new only), nickname, e-mail, mobile, roles, organisation
 * and (system admins) tenant. The form is checked with the server's schema before sending; the
 * username and mobile are checked for use when the field is left.
 */
export function UserDialog(props: {
  user: AdminUserListItem | null;
  defaultTenantId?: string;
  onClose(): void;
  onCreated(result: TemporaryPasswordResponse, username: string): void;
}) {
  const { t } = useAdminT();
  const names = useBuiltinNames();
  const rule = useFieldRule('users');
  const labels = useCrudLabels();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const u = props.user;
  const [username, setUsername] = useState(u?.username ?? '');
  const [nickname, setNickname] = useState(u?.nickname ?? '');
  const [email, setEmail] = useState(u?.email ?? '');
  const [mobile, setMobile] = useState(u?.mobile ?? '');
  const [roleIds, setRoleIds] = useState<string[]>(u?.roleList.map((r) => r.id) ?? []);
  const [orgId, setOrgId] = useState(u?.orgId ?? '');
  const [tenantId, setTenantId] = useState(u?.tenantId ?? props.defaultTenantId ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const roles = adminApi.endpoints['admin/roles'].useQuery();
  const orgs = adminApi.endpoints['admin/orgList'].useQuery({ tenantId: tenantId || undefined });
  const tenants = adminApi.endpoints['admin/tenants'].useQuery(undefined, { skip: !me?.isSystemRole });
  const [add, adding] = adminApi.endpoints['admin/addUser'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateUser'].useMutation();
  const [check] = adminApi.endpoints['admin/checkNameAndPhone'].useMutation();
  // Roles of the chosen tenant or shared ones.
  const target = tenantId || me?.tenantId;
  const roleChoices = (roles.data ?? []).filter((r) => r.tenantId === null || r.tenantId === target);

  const checkTaken = async (field: 'username' | 'mobile', value: string) => {
    if (!value || (field === 'username' && u)) return;
    try {
      const r = await check({ [field]: value, exceptUserId: u?.userId }).unwrap();
      const free = field === 'username' ? r.usernameFree : r.mobileFree;
      setErrors((e) => ({ ...e, [field]: free === false ? t(field === 'username' ? 'users.usernameTaken' : 'users.mobileTaken') : '' }));
    } catch {
      /* the save answers the same rule */
    }
  };

  const save = async () => {
    const fields = {
      nickname: nickname.trim() || null,
      email: email.trim(),
      mobile: mobile.trim() || null,
      roleIds,
      orgId: orgId || null,
      ...(tenantId ? { tenantId } : {}),
    };
    const parsed = u ? updateUserRequestSchema.safeParse({ ...fields, userId: u.userId }) : addUserRequestSchema.safeParse({ ...fields, username: username.trim() });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), rule(String(i.path[0]))])));
      return;
    }
    try {
      if (u) {
        await update(updateUserRequestSchema.parse({ ...fields, userId: u.userId })).unwrap();
        notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      } else {
        const r = await add(addUserRequestSchema.parse({ ...fields, username: username.trim() })).unwrap();
        props.onCreated(r, username.trim());
      }
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };

  const field = (name: string) => (errors[name] ? { helperText: errors[name], intent: 'danger' as const } : {});
  return (
    <CrudFormDialog
      title={u ? t('users.editTitle', { name: u.username }) : t('users.addTitle')}
      width={DIALOG_WIDTH.md}
      formId="admin-user-form"
      onClose={props.onClose}
      onSubmit={() => void save()}
      saving={adding.isLoading || updating.isLoading}
      saveTestId="admin-user-save"
      labels={labels}
    >
      <FormGroup label={t('users.username')} labelFor="admin-user-username" {...field('username')}>
        <InputGroup id="admin-user-username" value={username} disabled={u !== null} onChange={(e) => setUsername(e.target.value)} onBlur={() => void checkTaken('username', username.trim())} autoFocus={u === null} />
      </FormGroup>
      <FormGroup label={t('users.nickname')} labelFor="admin-user-nickname" {...field('nickname')}>
        <InputGroup id="admin-user-nickname" value={nickname} onChange={(e) => setNickname(e.target.value)} />
      </FormGroup>
      <FormGroup label={t('users.email')} labelFor="admin-user-email" {...field('email')}>
        <InputGroup id="admin-user-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormGroup>
      <FormGroup label={t('users.mobile')} labelFor="admin-user-mobile" {...field('mobile')}>
        <InputGroup id="admin-user-mobile" value={mobile} onChange={(e) => setMobile(e.target.value)} onBlur={() => void checkTaken('mobile', mobile.trim())} />
      </FormGroup>
      {me?.isSystemRole && (
        <FormGroup label={t('users.tenant')} labelFor="admin-user-tenant">
          <IdSelect
            id="admin-user-tenant"
            value={tenantId}
            onChange={(id) => {
              setTenantId(id);
              setOrgId('');
              setRoleIds([]);
            }}
            none={t('users.ownTenant')}
            items={tenants.data?.map((x) => ({ id: x.id, name: names.tenant(x) }))}
          />
        </FormGroup>
      )}
      <FormGroup label={t('users.org')} labelFor="admin-user-org" {...field('orgId')}>
        {/* the chosen tenant's organisations only, never the previous tenant's while these load */}
        <IdSelect id="admin-user-org" value={orgId} onChange={setOrgId} none={t('users.noOrg')} items={orgs.currentData} />
      </FormGroup>
      <FormGroup label={t('users.roles')} {...field('roleIds')}>
        <div role="group" aria-label={t('users.roles')} data-testid="admin-user-roles">
          {roleChoices.map((r) => (
            <Checkbox
              key={r.id}
              inline
              label={names.role(r)}
              checked={roleIds.includes(r.id)}
              onChange={(e) => setRoleIds((ids) => ((e.target as HTMLInputElement).checked ? [...ids, r.id] : ids.filter((x) => x !== r.id)))}
            />
          ))}
        </div>
      </FormGroup>
    </CrudFormDialog>
  );
}
