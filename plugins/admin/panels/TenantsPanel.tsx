import { useState } from 'react';
import { Alert, Button, ButtonGroup, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, NumericInput, Tag } from '@blueprintjs/core';
import { DIALOG_WIDTH, tenantCreateSchema, type TenantItem } from '@decisio/domain';
import { formatBytes, pageCount, Pager, useCurrentUser, useListSearch, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { errorText, LoadState, PanelBody } from './shared';

const PAGE_SIZE = 20;
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
  const notify = useNotify();
  const system = Boolean(useCurrentUser().data?.isSystemRole);
  const { keyword, setKeyword, search, page, setPage } = useListSearch();
  const list = adminApi.endpoints['admin/tenantPage'].useQuery({ page, pageSize: PAGE_SIZE, keyword: search || undefined });
  const [remove] = adminApi.endpoints['admin/deleteTenant'].useMutation();
  const [editing, setEditing] = useState<{ tenant: TenantItem | null } | null>(null);
  const [deleting, setDeleting] = useState<TenantItem | null>(null);
  const data = list.data;
  const quota = (n: number | null, unit: (n: number) => string) => (n === null ? t('tenants.unlimited') : unit(n));

  return (
    <PanelBody testId="admin-tenants-panel">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <InputGroup leftIcon="search" placeholder={t('tenants.search')} aria-label={t('tenants.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} />
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('common.refresh')} title={t('common.refresh')} />
        {system && (
          <Button icon="add" intent="primary" onClick={() => setEditing({ tenant: null })} data-testid="admin-tenants-add">
            {t('tenants.add')}
          </Button>
        )}
      </div>
      <LoadState loading={list.isLoading} error={list.error} onRetry={() => void list.refetch()} />
      {data && data.total === 0 && <NonIdealState icon="office" title={search ? t('common.noMatch') : t('tenants.empty')} />}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped compact style={{ width: '100%' }} data-testid="admin-tenants-table">
            <thead>
              <tr>
                <th>{t('tenants.name')}</th>
                <th>{t('tenants.code')}</th>
                <th>{t('tenants.status')}</th>
                <th>{t('tenants.domain')}</th>
                <th>{t('tenants.users')}</th>
                <th>{t('tenants.quotas')}</th>
                <th>{t('tenants.invite')}</th>
                {system && <th>{t('common.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((x) => (
                <tr key={x.id} data-testid="admin-tenant-row">
                  <td>{x.name}</td>
                  <td>
                    <code>{x.code}</code>
                  </td>
                  <td>
                    <Tag minimal intent={x.status === 'enabled' ? 'success' : 'danger'}>{t(x.status === 'enabled' ? 'users.enabled' : 'users.disabled')}</Tag>
                  </td>
                  <td>{x.domain ?? ''}</td>
                  <td>{x.userCount}</td>
                  <td style={{ fontSize: 12 }}>
                    {t('tenants.storage')}: {quota(x.storageQuotaBytes, (n) => formatBytes(n))}
                    <br />
                    {t('tenants.trainings')}: {quota(x.maxTrainings, String)} · {t('tenants.services')}: {quota(x.maxServices, String)}
                  </td>
                  <td>
                    {x.inviteCode && (
                      <Button
                        small
                        minimal
                        icon="link"
                        onClick={() =>
                          void navigator.clipboard
                            ?.writeText(inviteLink(x.inviteCode!))
                            .then(() => notify({ message: t('tenants.copied'), intent: 'success', icon: 'clipboard' }))
                            .catch(() => notify({ message: t('tenants.copyFailed'), intent: 'warning', icon: 'clipboard' }))
                        }
                        title={inviteLink(x.inviteCode)}
                      >
                        {t('tenants.copyInvite')}
                      </Button>
                    )}
                  </td>
                  {system && (
                    <td>
                      <ButtonGroup minimal>
                        <Button small icon="edit" onClick={() => setEditing({ tenant: x })}>
                          {t('common.edit')}
                        </Button>
                        <Button small icon="trash" intent="danger" onClick={() => setDeleting(x)}>
                          {t('common.delete')}
                        </Button>
                      </ButtonGroup>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager small page={page} pages={pageCount(data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('common.prev')} nextLabel={t('common.next')}>
            {t('common.page', { page, pages: pageCount(data.total, PAGE_SIZE), total: data.total })}
          </Pager>
        </>
      )}
      {editing && <TenantDialog tenant={editing.tenant} onClose={() => setEditing(null)} />}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const x = deleting!;
          setDeleting(null);
          remove({ id: x.id })
            .unwrap()
            .then(() => notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {deleting ? t('tenants.deleteConfirm', { name: deleting.name }) : null}
      </Alert>
    </PanelBody>
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
  const notify = useNotify();
  const x = props.tenant;
  const [code, setCode] = useState(x?.code ?? '');
  const [name, setName] = useState(x?.name ?? '');
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
      name: name.trim(),
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
    try {
      if (x) {
        const { code: _code, ...rest } = parsed.data;
        await update({ id: x.id, ...rest }).unwrap();
      } else await create(parsed.data).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };
  const bad = (f: string) => (invalid.includes(f) ? { intent: 'danger' as const, helperText: t('tenants.invalid') } : {});
  return (
    <Dialog isOpen onClose={props.onClose} title={x ? t('tenants.editTitle') : t('tenants.addTitle')} style={{ width: DIALOG_WIDTH.md }}>
      <DialogBody>
        <form
          id="admin-tenant-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormGroup label={t('tenants.name')} labelFor="admin-tenant-name" {...bad('name')}>
            <InputGroup id="admin-tenant-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          </FormGroup>
          <FormGroup label={t('tenants.code')} labelFor="admin-tenant-code" {...bad('code')}>
            <InputGroup id="admin-tenant-code" value={code} disabled={x !== null} onChange={(e) => setCode(e.target.value)} />
          </FormGroup>
          <FormGroup label={t('tenants.domain')} labelFor="admin-tenant-domain" helperText={invalid.includes('domain') ? t('tenants.invalid') : t('tenants.domainHelp')} intent={invalid.includes('domain') ? 'danger' : 'none'}>
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
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button type="submit" form="admin-tenant-form" intent="primary" loading={creating.isLoading || updating.isLoading} data-testid="admin-tenant-save">
              {t('common.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
