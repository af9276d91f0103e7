import { useState } from 'react';
import { FormGroup, InputGroup } from '@blueprintjs/core';
import { DIALOG_WIDTH, orgCreateSchema, type OrgItem } from '@decisio/domain';
import { CrudFormDialog, CrudScreen, useCrudRun, useCurrentUser, type PanelProps } from '@decisio/sdk-plugin';
import { adminApi } from '../api';
import { useAdminT } from '../i18n';
import { flattenTree, IdSelect, treeRowActions, useBuiltinNames, useCan, useCrudLabels } from './shared';

type Row = { node: OrgItem; depth: number };

/**
 * `/admin/orgs`: the organisation tree of the tenant (system admins pick the tenant) with the
 * members of each; create (under a parent), rename, move and delete (only when empty).
 */
export function OrgsPanel(_props: PanelProps) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const me = useCurrentUser().data;
  const canWrite = useCan('orgs:write');
  const names = useBuiltinNames();
  const [tenantId, setTenantId] = useState('');
  const tenants = adminApi.endpoints['admin/tenants'].useQuery(undefined, { skip: !me?.isSystemRole });
  const tree = adminApi.endpoints['admin/orgTree'].useQuery({ tenantId: tenantId || undefined });
  const [remove] = adminApi.endpoints['admin/deleteOrg'].useMutation();
  const [editing, setEditing] = useState<{ org: OrgItem | null; parentId: string | null } | null>(null);
  // the chosen tenant's organisations only: the previous tenant's are never listed, offered as a
  // parent or acted on while these load
  const current = tree.currentData;
  const rows = flattenTree(current ?? []);

  return (
    <CrudScreen<Row>
      testId="admin-orgs-panel"
      labels={labels}
      filters={
        me?.isSystemRole && (
          <IdSelect value={tenantId} onChange={setTenantId} none={t('users.ownTenant')} items={tenants.data?.map((x) => ({ id: x.id, name: names.tenant(x) }))} aria-label={t('users.tenant')} data-testid="admin-orgs-tenant" />
        )
      }
      loading={current === undefined && !tree.error}
      error={tree.error}
      onRefresh={() => void tree.refetch()}
      add={canWrite && { label: t('orgs.add'), onClick: () => setEditing({ org: null, parentId: null }), testId: 'admin-orgs-add' }}
      rows={current ? rows : undefined}
      empty={{ icon: 'diagram-tree', title: t('orgs.empty'), description: t('orgs.emptyHelp') }}
      tableTestId="admin-orgs-table"
      rowTestId="admin-org-row"
      rowKey={(r) => r.node.id}
      columns={[
        { key: 'name', header: t('orgs.name'), cell: (r) => r.node.name, style: (r) => ({ paddingLeft: 8 + r.depth * 20 }) },
        { key: 'members', header: t('orgs.members'), cell: (r) => r.node.userCount },
      ]}
      actions={treeRowActions<OrgItem>(canWrite, {
        addChild: t('orgs.addChild'),
        open: (org, parentId) => setEditing({ org, parentId }),
        confirm: (o) => t('orgs.deleteConfirm', { name: o.name }),
        remove: (o) => remove({ id: o.id }).unwrap(),
      })}
    >
      {editing && <OrgDialog org={editing.org} parentId={editing.parentId} tenantId={tenantId || undefined} all={rows.map((r) => r.node)} onClose={() => setEditing(null)} />}
    </CrudScreen>
  );
}

function OrgDialog(props: { org: OrgItem | null; parentId: string | null; tenantId?: string; all: OrgItem[]; onClose(): void }) {
  const { t } = useAdminT();
  const labels = useCrudLabels();
  const run = useCrudRun(labels.failed);
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
    const body = parsed.data;
    const ok = await run(
      () => (props.org ? update({ id: props.org.id, name: body.name, parentId: body.parentId }).unwrap() : create({ name: body.name, parentId: body.parentId, ...(props.tenantId ? { tenantId: props.tenantId } : {}) }).unwrap()),
      t('common.saved'),
    );
    if (ok) props.onClose();
  };
  return (
    <CrudFormDialog
      title={props.org ? t('orgs.editTitle') : t('orgs.addTitle')}
      width={DIALOG_WIDTH.sm}
      formId="admin-org-form"
      onClose={props.onClose}
      onSubmit={() => void save()}
      saving={creating.isLoading || updating.isLoading}
      saveTestId="admin-org-save"
      labels={labels}
    >
      <FormGroup label={t('orgs.name')} labelFor="admin-org-name" intent={invalid ? 'danger' : 'none'} helperText={invalid ? t('orgs.invalid') : undefined}>
        <InputGroup id="admin-org-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </FormGroup>
      <FormGroup label={t('orgs.parent')} labelFor="admin-org-parent">
        <IdSelect id="admin-org-parent" value={parentId} onChange={setParentId} none={t('orgs.root')} items={props.all.filter((o) => o.id !== props.org?.id)} />
      </FormGroup>
    </CrudFormDialog>
  );
}
