import { useState } from 'react';
import { Button, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, tenantCreateSchema, type TenantItem } from '@decisio/domain';
import { CrudFormDialog, CrudScreen, formatBytes, invalidField, NumericInput, pageCount, type PanelProps, useCrudRun, useCurrentUser, useListSearch, useNotify } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { hasSeededName, useBuiltinNames, useCan, useCrudLabels, useFieldRule } from './shared';

const PAGE_SIZE = 20;
/** The fixed code of the seeded default tenant (the tenant of sign-ups that match no other). */
const DEFAULT_TENANT_CODE = 'default';
const GB = 1024 ** 3;

/** The sign-up link of a tenant's invitation. */
function inviteLink(code: string): string {
  return `${window.location.origin}/sign-up?invite=${encodeURIComponent(code)}`;
}

/**
 * `/admin/tenants`: system admins see, create, edit and delete every tenant (deleting is refused
 * while it holds data); tenant admins see their own. Each tenant has its sign-up invitation link,
 * an e-mail domain rule and quotas (storage, concurrent trainings, running services).
 */
export function TenantsPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const notify = useNotify();
  const me = useCurrentUser().data;
  // tenant changes are the system admins' (the server checks the system role and `tenants:write`)
  const canWrite = useCan('tenants:write');
  const system = Boolean(me?.isSystemRole) && canWrite;
  const names = useBuiltinNames();
  /** Why a tenant cannot be deleted, when the screen knows it already (the server checks its projects and files too). */
  const deleteLocked = (x: TenantItem) =>
    x.code === DEFAULT_TENANT_CODE ? t('tenants.defaultLocked') : x.userCount > 0 || x.id === me?.tenantId ? t('tenants.hasUsers') : false;
  const { keyword, setKeyword, search, page, setPage } = useListSearch();
  const list = adminApi.endpoints['admin/tenantPage'].useQuery({ page, pageSize: PAGE_SIZE, keyword: search || undefined });
  const [remove] = adminApi.endpoints['admin/deleteTenant'].useMutation();
  const [editing, setEditing] = useState<{ tenant: TenantItem | null } | null>(null);
  const data = list.data;
  const pages = pageCount(data?.total ?? 0, PAGE_SIZE);
  const quota = (n: number | null, unit: (n: number) => string) => (n === null ? t('tenants.unlimited') : unit(n));
  const copyInvite = (code: string) =>
    void navigator.clipboard
      ?.writeText(inviteLink(code))
      .then(() => notify({ message: t('tenants.copied'), intent: 'success', icon: 'clipboard' }))
      .catch(() => notify({ message: t('tenants.copyFailed'), intent: 'warning', icon: 'clipboard' }));

  return (
    <CrudScreen<TenantItem>
      testId="admin-tenants-panel"
      labels={labels}
      filters={<InputGroup leftIcon="search" placeholder={t('tenants.search')} aria-label={t('tenants.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} />}
      loading={list.isLoading}
      error={list.error}
      onRefresh={() => void list.refetch()}
      add={system && { label: t('tenants.add'), onClick: () => setEditing({ tenant: null }), testId: 'admin-tenants-add' }}
      rows={data?.rows}
      total={data?.total}
      empty={{ icon: 'office', title: search ? t('common.noMatch') : t('tenants.empty') }}
      tableTestId="admin-tenants-table"
      rowTestId="admin-tenant-row"
      rowKey={(x) => x.id}
      columns={[
        { key: 'name', header: t('tenants.name'), cell: (x) => names.tenant(x) },
        { key: 'code', header: t('tenants.code'), cell: (x) => <code>{x.code}</code> },
        { key: 'status', header: t('tenants.status'), cell: (x) => <Tag minimal intent={x.status === 'enabled' ? 'success' : 'danger'}>{t(x.status === 'enabled' ? 'users.enabled' : 'users.disabled')}</Tag> },
        { key: 'domain', header: t('tenants.domain'), cell: (x) => x.domain ?? '' },
        { key: 'users', header: t('tenants.users'), cell: (x) => x.userCount },
        {
          key: 'quotas',
          header: t('tenants.quotas'),
          style: { fontSize: 12 },
          cell: (x) => (
            <>
              {t('tenants.storage')}: {quota(x.storageQuotaBytes, (n) => formatBytes(n))}
              <br />
              {t('tenants.trainings')}: {quota(x.maxTrainings, String)} · {t('tenants.services')}: {quota(x.maxServices, String)}
            </>
          ),
        },
        {
          key: 'invite',
          header: t('tenants.invite'),
          cell: (x) =>
            x.inviteCode && (
              <Button small minimal icon="link" onClick={() => copyInvite(x.inviteCode!)} title={inviteLink(x.inviteCode)}>
                {t('tenants.copyInvite')}
              </Button>
            ),
        },
      ]}
      actions={
        system
          ? {
              edit: (x) => setEditing({ tenant: x }),
              delete: { confirm: (x) => t('tenants.deleteConfirm', { name: names.tenant(x) }), run: (x) => remove({ id: x.id }).unwrap() },
              deleteLocked,
            }
          : undefined
      }
      pager={{ page, pages, onPage: setPage, text: t('common.page', { page, pages, total: data?.total ?? 0 }) }}
    >
      {editing && <TenantDialog tenant={editing.tenant} onClose={() => setEditing(null)} />}
    </CrudScreen>
  );
}

/** A quota field: empty means no limit. */
function QuotaInput(props: { id: string; value: number | null; onChange(v: number | null): void; max: number }) {
  return (
    <NumericInput
      id={props.id}
      min={0}
      max={props.max}
      value={props.value ?? ''}
      onValueChange={(v, text) => props.onChange(text.trim() === '' || !Number.isFinite(v) ? null : v)}
    />
  );
}

function TenantDialog(props: { tenant: TenantItem | null; onClose(): void }) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const run = useCrudRun(labels.failed);
  const x = props.tenant;
  const names = useBuiltinNames();
  // The seeded tenant's stored name is a key (tenant.default): the field shows its label, and
  // saving it unchanged keeps the key, so the label still follows the interface language.
  const seededLabel = x && hasSeededName('tenant', x) ? names.tenant(x) : null;
  const [code, setCode] = useState(x?.code ?? '');
  const [name, setName] = useState(seededLabel ?? x?.name ?? '');
  const [domain, setDomain] = useState(x?.domain ?? '');
  const [status, setStatus] = useState<'enabled' | 'disabled'>(x?.status ?? 'enabled');
  const [storageGb, setStorageGb] = useState<number | null>(x?.storageQuotaBytes == null ? null : x.storageQuotaBytes / GB);
  const [maxTrainings, setMaxTrainings] = useState<number | null>(x?.maxTrainings ?? null);
  const [maxServices, setMaxServices] = useState<number | null>(x?.maxServices ?? null);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [create, creating] = adminApi.endpoints['admin/addTenant'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateTenant'].useMutation();

  const save = async () => {
    const body = {
      code: code.trim(),
      name: x && seededLabel !== null && name.trim() === seededLabel ? x.name : name.trim(),
      domain: domain.trim() || null,
      status,
      storageQuotaBytes: storageGb === null ? null : Math.round(storageGb * GB),
      maxTrainings,
      maxServices,
    };
    const parsed = tenantCreateSchema.safeParse(body);
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => String(i.path[0])));
      return;
    }
    const { code: _code, ...rest } = parsed.data;
    if (await run(() => (x ? update({ id: x.id, ...rest }).unwrap() : create(parsed.data).unwrap()), t('common.saved'))) props.onClose();
  };
  const rule = useFieldRule('tenants');
  const bad = (f: string) => invalidField(invalid, f, rule(f));
  return (
    <CrudFormDialog
      title={x ? t('tenants.editTitle') : t('tenants.addTitle')}
      width={DIALOG_WIDTH.md}
      formId="admin-tenant-form"
      onClose={props.onClose}
      onSubmit={() => void save()}
      saving={creating.isLoading || updating.isLoading}
      saveTestId="admin-tenant-save"
      labels={labels}
    >
      <FormGroup label={t('tenants.name')} labelFor="admin-tenant-name" {...bad('name')}>
        <InputGroup id="admin-tenant-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </FormGroup>
      <FormGroup label={t('tenants.code')} labelFor="admin-tenant-code" {...bad('code')}>
        <InputGroup id="admin-tenant-code" value={code} disabled={x !== null} onChange={(e) => setCode(e.target.value)} />
      </FormGroup>
      <FormGroup label={t('tenants.domain')} labelFor="admin-tenant-domain" helperText={invalid.includes('domain') ? rule('domain') : t('tenants.domainHelp')} intent={invalid.includes('domain') ? 'danger' : 'none'}>
        <InputGroup id="admin-tenant-domain" value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" />
      </FormGroup>
      <FormGroup label={t('tenants.status')} labelFor="admin-tenant-status">
        <HTMLSelect id="admin-tenant-status" value={status} onChange={(e) => setStatus(e.target.value as 'enabled' | 'disabled')}>
          <option value="enabled">{t('users.enabled')}</option>
          <option value="disabled">{t('users.disabled')}</option>
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('tenants.storageGb')} labelFor="admin-tenant-storage" helperText={t('tenants.emptyUnlimited')} {...bad('storageQuotaBytes')}>
        <QuotaInput id="admin-tenant-storage" value={storageGb} onChange={setStorageGb} max={500} />
      </FormGroup>
      <FormGroup label={t('tenants.trainings')} labelFor="admin-tenant-trainings" helperText={t('tenants.emptyUnlimited')} {...bad('maxTrainings')}>
        <QuotaInput id="admin-tenant-trainings" value={maxTrainings} onChange={setMaxTrainings} max={10000} />
      </FormGroup>
      <FormGroup label={t('tenants.services')} labelFor="admin-tenant-services" helperText={t('tenants.emptyUnlimited')} {...bad('maxServices')}>
        <QuotaInput id="admin-tenant-services" value={maxServices} onChange={setMaxServices} max={10000} />
      </FormGroup>
    </CrudFormDialog>
  );
}
