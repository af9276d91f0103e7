import { useState } from 'react';
import { Alert, Button, ButtonGroup, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState } from '@blueprintjs/core';
import { DIALOG_WIDTH, orgCreateSchema, type OrgItem } from '@decisio/domain';
import { useCurrentUser, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { errorText, flattenTree, LoadState, PanelBody } from './shared';

/**
 * `/admin/orgs`: the organisation tree of the tenant (system admins pick the tenant) with the
 * members of each; create (under a parent), rename, move and delete (only when empty).
 */
export function OrgsPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const [tenantId, setTenantId] = useState('');
  const tenants = adminApi.endpoints['admin/tenants'].useQuery(undefined, { skip: !me?.isSystemRole });
  const tree = adminApi.endpoints['admin/orgTree'].useQuery({ tenantId: tenantId || undefined });
  const [remove] = adminApi.endpoints['admin/deleteOrg'].useMutation();
  const [editing, setEditing] = useState<{ org: OrgItem | null; parentId: string | null } | null>(null);
  const [deleting, setDeleting] = useState<OrgItem | null>(null);
  const rows = flattenTree(tree.data ?? []);

  return (
    <PanelBody testId="admin-orgs-panel">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        {me?.isSystemRole && (
          <HTMLSelect value={tenantId} onChange={(e) => setTenantId(e.target.value)} aria-label={t('users.tenant')} data-testid="admin-orgs-tenant">
            <option value="">{t('users.ownTenant')}</option>
            {(tenants.data ?? []).map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </HTMLSelect>
        )}
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void tree.refetch()} aria-label={t('common.refresh')} title={t('common.refresh')} />
        <Button icon="add" intent="primary" onClick={() => setEditing({ org: null, parentId: null })} data-testid="admin-orgs-add">
          {t('orgs.add')}
        </Button>
      </div>
      <LoadState loading={tree.isLoading} error={tree.error} onRetry={() => void tree.refetch()} />
      {tree.data && rows.length === 0 && <NonIdealState icon="diagram-tree" title={t('orgs.empty')} description={t('orgs.emptyHelp')} />}
      {rows.length > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }} data-testid="admin-orgs-table">
          <thead>
            <tr>
              <th>{t('orgs.name')}</th>
              <th>{t('orgs.members')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node, depth }) => (
              <tr key={node.id} data-testid="admin-org-row">
                <td style={{ paddingLeft: 8 + depth * 20 }}>{node.name}</td>
                <td>{node.userCount}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="add" onClick={() => setEditing({ org: null, parentId: node.id })}>
                      {t('orgs.addChild')}
                    </Button>
                    <Button small icon="edit" onClick={() => setEditing({ org: node, parentId: node.parentId })}>
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
      {editing && <OrgDialog org={editing.org} parentId={editing.parentId} tenantId={tenantId || undefined} all={rows.map((r) => r.node)} onClose={() => setEditing(null)} />}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('common.delete')}
        cancelButtonText={t('common.cancel')}
        canEscapeKeyCancel
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const o = deleting!;
          setDeleting(null);
          remove({ id: o.id })
            .unwrap()
            .then(() => notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' }))
            .catch((err: unknown) => notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' }));
        }}
      >
        {deleting ? t('orgs.deleteConfirm', { name: deleting.name }) : null}
      </Alert>
    </PanelBody>
  );
}

function OrgDialog(props: { org: OrgItem | null; parentId: string | null; tenantId?: string; all: OrgItem[]; onClose(): void }) {
  const { t } = useAdminT();
  const notify = useNotify();
  const [name, setName] = useState(props.org?.name ?? '');
  const [parentId, setParentId] = useState(props.parentId ?? '');
  const [invalid, setInvalid] = useState(false);
  const [create, creating] = adminApi.endpoints['admin/createOrg'].useMutation();
  const [update, updating] = adminApi.endpoints['admin/updateOrg'].useMutation();
  const save = async () => {
    const parsed = orgCreateSchema.safeParse({ name: name.trim(), parentId: parentId || null });
    if (!parsed.success) {
      setInvalid(true);
      return;
    }
    try {
      if (props.org) await update({ id: props.org.id, name: parsed.data.name, parentId: parsed.data.parentId }).unwrap();
      else await create({ name: parsed.data.name, parentId: parsed.data.parentId, ...(props.tenantId ? { tenantId: props.tenantId } : {}) }).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      props.onClose();
    } catch (err) {
      notify({ message: errorText(err, t('common.failed')), intent: 'danger', icon: 'error' });
    }
  };
  return (
    <Dialog isOpen onClose={props.onClose} title={props.org ? t('orgs.editTitle') : t('orgs.addTitle')} style={{ width: DIALOG_WIDTH.sm }}>
      <DialogBody>
        <form
          id="admin-org-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormGroup label={t('orgs.name')} labelFor="admin-org-name" intent={invalid ? 'danger' : 'none'} helperText={invalid ? t('orgs.invalid') : undefined}>
            <InputGroup id="admin-org-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          </FormGroup>
          <FormGroup label={t('orgs.parent')} labelFor="admin-org-parent">
            <HTMLSelect id="admin-org-parent" value={parentId} onChange={(e) => setParentId(e.target.value)}>
              <option value="">{t('orgs.root')}</option>
              {props.all
                .filter((o) => o.id !== props.org?.id)
                .map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
            </HTMLSelect>
          </FormGroup>
        </form>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button type="submit" form="admin-org-form" intent="primary" loading={creating.isLoading || updating.isLoading} data-testid="admin-org-save">
              {t('common.save')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
