import { useState } from 'react';
import {
  Alert,
  Button,
  ButtonGroup,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
  TextArea,
} from '@blueprintjs/core';
import { DEPLOY_LIMITS, type ModelServiceItem, type ModelServiceWithToken } from '@decisio/domain';
import { useNavigate, useNotify, useProjectLink } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';
import { StatusTag, TokenDialog, TRANSIENT, failureMessage, isFieldErrors } from './common';
import { useSolutionChoice } from './pickers';

const PAGE_SIZE = 20;

/** The create dialog: service name, policy, description (spec workflow §5 "Model service"). */
function CreateDialog({ projectId, policyId, isOpen, onClose, onCreated }: { projectId: string; policyId?: string; isOpen: boolean; onClose(): void; onCreated(s: ModelServiceWithToken): void }) {
  const { t } = useDeployT();
  const { solutionId, picker } = useSolutionChoice(isOpen ? projectId : undefined);
  const policies = deployApi.endpoints['deploy/policies'].useQuery({ solutionId: solutionId ?? '' }, { skip: !isOpen || !solutionId });
  const trained = (policies.data?.rows ?? []).filter((p) => p.state === 'successful' || p.state === 'successful by manual stop');
  const notify = useNotify();
  const [create, { isLoading }] = deployApi.endpoints['deploy/create'].useMutation();
  const [name, setName] = useState('');
  const [policy, setPolicy] = useState(policyId ?? '');
  const [description, setDescription] = useState('');
  const [keepPayloads, setKeepPayloads] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const nameMissing = touched && name.trim() === '';
  const policyMissing = touched && policy.trim() === '';

  const submit = async () => {
    setTouched(true);
    if (name.trim() === '' || policy.trim() === '') return;
    try {
      const s = await create({ serviceName: name.trim(), policyId: policy.trim(), description, keepPayloads }).unwrap();
      setName('');
      setDescription('');
      setErrors({});
      setTouched(false);
      onCreated(s);
    } catch (err) {
      if (isFieldErrors(err)) setErrors(err.errors);
      const message = failureMessage(err, t('create.failed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('create.title')} icon="cloud-upload">
      <form
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
            <HTMLSelect id="deploy-policy" fill value={policy} onChange={(e) => setPolicy(e.currentTarget.value)} disabled={policies.isFetching && trained.length === 0}>
              <option value="">{t('create.choosePolicy')}</option>
              {policy && !trained.some((p) => p.id === policy) && <option value={policy}>{policy}</option>}
              {trained.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {typeof p.score === 'number' ? ` (${p.score.toPrecision(4)})` : ''}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('create.description')} labelFor="deploy-description" helperText={t('create.count', { n: description.length })} intent={errors.description ? 'danger' : 'none'}>
            <TextArea id="deploy-description" fill value={description} maxLength={DEPLOY_LIMITS.descriptionMax} onChange={(e) => setDescription(e.target.value)} />
          </FormGroup>
          <Switch checked={keepPayloads} label={t('feedback.keep')} onChange={(e) => setKeepPayloads(e.currentTarget.checked)} />
          <p className={Classes.TEXT_MUTED} style={{ marginTop: -4 }}>
            {t('feedback.keepHelp')}
          </p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('create.cancel')} onClick={onClose} />
              <Button type="submit" intent="primary" loading={isLoading} text={t('create.submit')} data-testid="deploy-submit" />
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
 * each service's page. Polls while a service is deploying or starting.
 */
export function DeployListPanel() {
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const link = useProjectLink();
  const navigate = useNavigate();
  const projectId = link.params.projectId;
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ModelServiceWithToken | null>(null);
  const [confirm, setConfirm] = useState<ModelServiceItem | null>(null);
  const [polling, setPolling] = useState(false);

  const list = deployApi.endpoints['deploy/page'].useQuery(
    { projectId: projectId ?? '', solutionId: link.params.solutionId, page, pageSize: PAGE_SIZE, keyword: keyword.trim() || undefined },
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
      const message = failureMessage(err, t('list.actionFailed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };

  const detailHref = (id: string) => {
    const base = link.href('/project/deploy-detail');
    return `${base}${base.includes('?') ? '&' : '?'}serviceId=${id}`;
  };
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const time = (iso: string) => new Date(iso).toLocaleString(locale);

  let body;
  if (list.isLoading) body = <Spinner size={32} />;
  else if (list.isError)
    body = (
      <Callout intent="danger" title={t('list.loadFailed')}>
        <Button text={t('list.retry')} onClick={() => void list.refetch()} />
      </Callout>
    );
  else if (rows.length === 0)
    body = keyword.trim() ? (
      <NonIdealState icon="search" title={t('list.noMatch')} />
    ) : (
      <NonIdealState icon="cloud-upload" title={t('list.emptyTitle')} description={t('list.emptyDescription')} action={<Button intent="primary" icon="add" text={t('list.create')} onClick={() => setCreating(true)} data-testid="deploy-create" />} />
    );
  else
    body = (
      <HTMLTable striped interactive compact style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('list.name')}</th>
            <th>{t('list.policy')}</th>
            <th>{t('list.status')}</th>
            <th>{t('list.description')}</th>
            <th>{t('list.updated')}</th>
            <th>{t('list.actions')}</th>
          </tr>
        </thead>
        <tbody data-testid="deploy-rows">
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
                <StatusTag status={s.status} />
              </td>
              <td>{s.description}</td>
              <td>{time(s.updatedAt)}</td>
              <td>
                <ButtonGroup variant="minimal">
                  {s.status === 'waiting' || s.status === 'failure' ? (
                    <Button icon="play" text={t('list.start')} data-testid="deploy-start" onClick={() => void act(() => start({ id: s.id }).unwrap(), t('list.started', { name: s.serviceName }))} />
                  ) : (
                    <Button icon="stop" text={t('list.stop')} disabled={s.status === 'deploying'} onClick={() => void act(() => stop({ id: s.id }).unwrap(), t('list.stopped', { name: s.serviceName }))} />
                  )}
                  <Button icon="trash" intent="danger" text={t('list.delete')} disabled={s.status !== 'waiting' && s.status !== 'failure'} onClick={() => setConfirm(s)} />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );

  return (
    <div style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', gap: 8 }}>
        <InputGroup
          leftIcon="search"
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.target.value);
            setPage(1);
          }}
        />
        <Button intent="primary" icon="add" text={t('list.create')} onClick={() => setCreating(true)} data-testid="deploy-create" />
      </div>
      {body}
      {pages > 1 && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Button icon="chevron-left" text={t('list.prev')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
          <span>{t('list.pageOf', { page, pages })}</span>
          <Button rightIcon="chevron-right" text={t('list.next')} disabled={page >= pages} onClick={() => setPage(page + 1)} />
        </div>
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
    </div>
  );
}
