import { useState } from 'react';
import { Button, ButtonGroup, Callout, Classes, DialogBody, DialogFooter, FormGroup, InputGroup, NonIdealState, Switch, Tag, TextArea } from '@blueprintjs/core';
import { DEPLOY_LIMITS, type ModelServiceItem, type ModelServiceWithToken } from '@decisio/domain';
import { Alert, Dialog, BusyButton, Pager, pageCount, useListSearch, useNavigate, useNotify, useProjectEditRight, useProjectLink, isFieldErrors, isTrained, policyGain, useFailureNotice, ChoiceSelect, DataTable, ListBody, PanelPage } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';
import { StatusTag, TokenDialog, TRANSIENT } from './common';
import { useSolutionPolicies } from '@decisio/sdk-plugin/trainings/pickers';
import { NEVER, TokenValidityField, expiryOf, type Validity } from './TokenValidity';

const PAGE_SIZE = 20;

/** The create dialog: service name, policy, description, token validity (spec workflow §5 "Model service"). */
function CreateDialog({ projectId, policyId, isOpen, onClose, onCreated }: { projectId: string; policyId?: string; isOpen: boolean; onClose(): void; onCreated(s: ModelServiceWithToken): void }) {
  const { t } = useDeployT();
  const { picker, policies } = useSolutionPolicies(projectId, isOpen);
  const trained = (policies.data?.rows ?? []).filter(isTrained);
  const fail = useFailureNotice();
  const [create, { isLoading }] = deployApi.endpoints['deploy/create'].useMutation();
  const [name, setName] = useState('');
  const [policy, setPolicy] = useState(policyId ?? '');
  const [description, setDescription] = useState('');
  const [keepPayloads, setKeepPayloads] = useState(true);
  const [validity, setValidity] = useState<Validity>(NEVER);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const nameMissing = touched && name.trim() === '';
  const policyMissing = touched && policy.trim() === '';
  const chosen = trained.find((p) => p.id === policy);
  const gain = chosen ? policyGain(chosen) : null;

  const submit = async () => {
    setTouched(true);
    const tokenExpiresAt = expiryOf(validity, new Date());
    if (tokenExpiresAt === undefined) setErrors({ ...errors, tokenExpiresAt: t('validity.invalid') });
    if (name.trim() === '' || policy.trim() === '' || tokenExpiresAt === undefined) return;
    try {
      const s = await create({ serviceName: name.trim(), policyId: policy.trim(), description, keepPayloads, ...(tokenExpiresAt ? { tokenExpiresAt } : {}) }).unwrap();
      setName('');
      setDescription('');
      setValidity(NEVER);
      setErrors({});
      setTouched(false);
      onCreated(s);
    } catch (err) {
      if (isFieldErrors(err)) setErrors(err.errors);
      fail(err, t('create.failed'));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('create.title')} icon="cloud-upload">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          <FormGroup label={t('create.name')} labelFor="deploy-name" labelInfo="*" intent={nameMissing || errors.serviceName ? 'danger' : 'none'} helperText={nameMissing ? t('create.required') : errors.serviceName}>
            <InputGroup id="deploy-name" autoFocus value={name} maxLength={DEPLOY_LIMITS.serviceNameMax} onChange={(e) => setName(e.target.value)} intent={nameMissing ? 'danger' : 'none'} />
          </FormGroup>
          {picker}
          <FormGroup
            label={t('create.policy')}
            labelFor="deploy-policy"
            labelInfo="*"
            intent={policyMissing || errors.policyId ? 'danger' : 'none'}
            helperText={policyMissing ? t('create.required') : (errors.policyId ?? (policies.isSuccess && trained.length === 0 ? t('create.noPolicies') : undefined))}
          >
            <ChoiceSelect
              id="deploy-policy"
              fill
              value={policy}
              onChange={setPolicy}
              disabled={policies.isFetching && trained.length === 0}
              placeholder={t('create.choosePolicy')}
              choices={[
                ...(policy && !trained.some((p) => p.id === policy) ? [{ value: policy, label: policy }] : []),
                // a policy's measure is its return in the learned environment (`reward`; `score` for other rows)
                ...trained.map((p) => {
                  const measure = typeof p.reward === 'number' ? p.reward : p.score;
                  return { value: p.id, label: `${p.name}${typeof measure === 'number' ? ` (${measure.toPrecision(4)})` : ''}` };
                }),
              ]}
            />
          </FormGroup>
          {gain?.behind && (
            <Callout intent="warning" icon="warning-sign" style={{ marginBottom: 12 }} data-testid="deploy-policy-behind">
              {t('create.behind', { reward: gain.reward.toPrecision(4), behaviour: gain.behaviour.toPrecision(4) })}
            </Callout>
          )}
          <FormGroup label={t('create.description')} labelFor="deploy-description" helperText={t('create.count', { n: description.length })} intent={errors.description ? 'danger' : 'none'}>
            <TextArea id="deploy-description" fill value={description} maxLength={DEPLOY_LIMITS.descriptionMax} onChange={(e) => setDescription(e.target.value)} />
          </FormGroup>
          <TokenValidityField
            id="deploy-validity"
            value={validity}
            onChange={(v) => {
              setValidity(v);
              if (errors.tokenExpiresAt) setErrors({ ...errors, tokenExpiresAt: '' });
            }}
            error={errors.tokenExpiresAt || undefined}
          />
          <Switch checked={keepPayloads} label={t('feedback.keep')} onChange={(e) => setKeepPayloads(e.currentTarget.checked)} />
          <p className={Classes.TEXT_MUTED} style={{ marginTop: -4 }}>
            {t('feedback.keepHelp')}
          </p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('create.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" loading={isLoading} text={t('create.submit')} data-testid="deploy-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/**
 * The model services of the current project (`/project/deploy?projectId=`): search, deploy a
 * policy (the token is shown once), start, stop, delete (waiting or failed only), and a link to
 * each service's page. Polls while a service is deploying or starting. A user who may not change
 * the project (view right, locked: {@link useProjectEditRight}) gets deploy, start, stop and delete
 * disabled, their title saying why.
 *
 * One list per project and solution: another starts on its own first page and search, with no
 * dialog open, and never shows the previous one's services (nor acts on them) while its own load.
 */
export function DeployListPanel() {
  const { projectId, solutionId } = useProjectLink().params;
  return <DeployList key={`${projectId ?? ''}/${solutionId ?? ''}`} />;
}

function DeployList() {
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const link = useProjectLink();
  const navigate = useNavigate();
  const projectId = link.params.projectId;
  // Refused only once known: not while the project is read.
  const refused = useProjectEditRight(projectId).reason;
  const change = { disabled: refused !== undefined, title: refused };
  const { keyword, setKeyword, search, page, setPage } = useListSearch();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ModelServiceWithToken | null>(null);
  const [confirm, setConfirm] = useState<ModelServiceItem | null>(null);
  const [polling, setPolling] = useState(false);

  const list = deployApi.endpoints['deploy/page'].useQuery(
    { projectId: projectId ?? '', solutionId: link.params.solutionId, page, pageSize: PAGE_SIZE, keyword: search || undefined },
    { skip: !projectId, pollingInterval: polling ? 1000 : 0 },
  );
  const [start] = deployApi.endpoints['deploy/start'].useMutation();
  const [stop] = deployApi.endpoints['deploy/stop'].useMutation();
  const [remove] = deployApi.endpoints['deploy/delete'].useMutation();

  const rows = list.data?.rows ?? [];
  const transient = rows.some((r) => TRANSIENT.includes(r.status));
  if (transient !== polling) setPolling(transient);

  if (!projectId) return <NonIdealState icon="projects" title={t('noProject.title')} description={t('noProject.description')} />;

  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      notify({ message: done, intent: 'success' });
    } catch (err) {
      fail(err, t('list.actionFailed'));
    }
  };

  const detailHref = (id: string) => {
    const base = link.href('/project/deploy-detail');
    return `${base}${base.includes('?') ? '&' : '?'}serviceId=${id}`;
  };
  const pages = pageCount(list.data?.total ?? 0, PAGE_SIZE);
  const time = (iso: string) => new Date(iso).toLocaleString(locale);

  const empty =
    rows.length > 0 ? null : search ? (
      <NonIdealState icon="search" title={t('list.noMatch')} />
    ) : (
      <NonIdealState icon="cloud-upload" title={t('list.emptyTitle')} description={t('list.emptyDescription')} action={<Button intent="primary" icon="add" text={t('list.create')} {...change} onClick={() => setCreating(true)} data-testid="deploy-create" />} />
    );
  const body = (
    <ListBody query={list} failed={t('list.loadFailed')} retry={t('list.retry')} empty={empty}>
      <DataTable interactive testId="deploy-rows" columns={[t('list.name'), t('list.policy'), t('list.status'), t('list.description'), t('list.updated'), t('list.actions')]}>
        {rows.map((s) => (
          <tr key={s.id}>
            <td>
              <a
                href={detailHref(s.id)}
                onClick={(e) => {
                  e.preventDefault();
                  navigate('/project/deploy-detail', { search: { ...link.search(), serviceId: s.id } });
                }}
              >
                {s.serviceName}
              </a>
            </td>
            <td>{s.policyName ?? s.policyId}</td>
            <td>
              <StatusTag status={s.status} />{' '}
              {s.tokenExpired && (
                <Tag intent="danger" minimal round icon="time" title={t('validity.expiredHint')}>
                  {t('validity.expired')}
                </Tag>
              )}
            </td>
            <td>{s.description}</td>
            <td>{time(s.updatedAt)}</td>
            <td>
              <ButtonGroup variant="minimal">
                {s.status === 'waiting' || s.status === 'failure' ? (
                  <Button icon="play" text={t('list.start')} {...change} data-testid="deploy-start" onClick={() => void act(() => start({ id: s.id }).unwrap(), t('list.started', { name: s.serviceName }))} />
                ) : (
                  <Button icon="stop" text={t('list.stop')} disabled={s.status === 'deploying' || change.disabled} title={refused} onClick={() => void act(() => stop({ id: s.id }).unwrap(), t('list.stopped', { name: s.serviceName }))} />
                )}
                <Button icon="trash" intent="danger" text={t('list.delete')} disabled={(s.status !== 'waiting' && s.status !== 'failure') || change.disabled} title={refused} onClick={() => setConfirm(s)} />
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </DataTable>
    </ListBody>
  );

  return (
    <PanelPage>
      <div style={{ display: 'flex', gap: 8 }}>
        <InputGroup
          leftIcon="search"
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
        />
        <Button intent="primary" icon="add" text={t('list.create')} {...change} onClick={() => setCreating(true)} data-testid="deploy-create" />
      </div>
      {body}
      {pages > 1 && (
        <Pager withText page={page} pages={pages} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')}>
          {t('list.pageOf', { page, pages })}
        </Pager>
      )}
      <CreateDialog
        projectId={projectId}
        policyId={link.params.policyId}
        isOpen={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setShown(s);
        }}
      />
      <TokenDialog service={shown} onClose={() => setShown(null)} />
      <Alert
        isOpen={confirm !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('list.delete')}
        cancelButtonText={t('list.cancel')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const s = confirm!;
          setConfirm(null);
          void act(() => remove({ id: s.id }).unwrap(), t('list.deleted', { name: s.serviceName }));
        }}
      >
        {confirm && t('list.confirmDelete', { name: confirm.serviceName })}
      </Alert>
    </PanelPage>
  );
}
