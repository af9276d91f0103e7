/**
 * What a service keeps of its calls for policy updates: the switch that keeps inputs and decisions,
 * a call's kept payload and reported outcome, the outcome call example, and the dialog that turns
 * kept calls into a dataset of the project (`modeldeploy/createDatasetFromRecords`).
 */
import { useState } from 'react';
import { Button, Checkbox, Classes, DialogBody, DialogFooter, FormGroup, InputGroup, Popover, Pre, Switch, Tag } from '@blueprintjs/core';
import { LIMITS, type ModelServiceDetail, type ModelServiceRecord } from '@decisio/domain';
import { Dialog, BusyButton, useNavigate, useNotify, useProjectEditRight, isFieldErrors, useFailureNotice } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';

/** The keep-payloads switch of a service (saved at once). */
export function KeepPayloadsSwitch({ service }: { service: ModelServiceDetail }) {
  const { t } = useDeployT();
  const fail = useFailureNotice();
  const [update, { isLoading }] = deployApi.endpoints['deploy/update'].useMutation();
  const refused = useProjectEditRight(service.projectId).reason;
  return (
    <Switch
      style={{ margin: 0 }}
      checked={service.keepPayloads}
      disabled={isLoading || refused !== undefined}
      title={refused}
      label={t(service.keepPayloads ? 'feedback.kept' : 'feedback.notKept')}
      onChange={(e) => {
        const keepPayloads = e.currentTarget.checked;
        update({ id: service.id, keepPayloads })
          .unwrap()
          .catch((err: unknown) => fail(err, t('list.actionFailed')));
      }}
    />
  );
}

/** A record's kept inputs, decisions and outcome behind a button (or a dash when nothing was kept). */
export function RecordPayload({ record }: { record: ModelServiceRecord }) {
  const { t, locale } = useDeployT();
  if (record.inputs === null && record.outcome === null) return <span className={Classes.TEXT_MUTED}>—</span>;
  const text = (v: unknown) => JSON.stringify(v, null, 2);
  return (
    <Popover
      placement="left"
      content={
        <div style={{ padding: 12, maxWidth: 480, maxHeight: 420, overflow: 'auto' }} data-testid="record-payload">
          <strong>{t('feedback.inputs')}</strong>
          <Pre>{record.inputs === null ? '—' : text(record.inputs)}</Pre>
          <strong>{t('feedback.decisions')}</strong>
          <Pre>{record.decisions === null ? '—' : text(record.decisions)}</Pre>
          <strong>{t('feedback.outcome')}</strong>
          <Pre>{record.outcome === null ? t('feedback.noOutcome') : text(record.outcome)}</Pre>
          {record.outcomeTime && <div className={Classes.TEXT_MUTED}>{t('feedback.reportedAt', { time: new Date(record.outcomeTime).toLocaleString(locale) })}</div>}
        </div>
      }
    >
      <Button small minimal icon="eye-open" aria-label={t('feedback.show')} text={record.outcome === null ? undefined : <Tag minimal intent="success">{t('feedback.hasOutcome')}</Tag>} />
    </Popover>
  );
}

/** The outcome call of the README, with this service's address. */
export function outcomeExample(s: ModelServiceDetail): string {
  return `curl -s ${s.accessAddress}/outcome \\\n  -H 'Authorization: Bearer <access token>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"decisionId": "<decisionId of the call>", "outcome": {"reward": 1.5}}'`;
}

/** "Create dataset from calls": a name and whether only calls with an outcome count. */
export function RecordsDatasetButton({ service }: { service: ModelServiceDetail }) {
  const { t } = useDeployT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [withOutcomeOnly, setWithOutcomeOnly] = useState(false);
  const [touched, setTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [made, setMade] = useState<string | null>(null);
  const [make, { isLoading }] = deployApi.endpoints['deploy/recordsToDataset'].useMutation();
  const refused = useProjectEditRight(service.projectId).reason;
  const missing = touched && name.trim() === '';
  const submit = async () => {
    setTouched(true);
    if (name.trim() === '') return;
    try {
      const r = await make({ id: service.id, name: name.trim(), withOutcomeOnly }).unwrap();
      setOpen(false);
      setName('');
      setTouched(false);
      setErrors({});
      notify({ message: t('feedback.made', { name: name.trim() }), intent: 'success' });
      setMade(r.tableId);
    } catch (err) {
      if (isFieldErrors(err)) setErrors(err.errors);
      fail(err, t('feedback.makeFailed'));
    }
  };
  return (
    <>
      <Button icon="th-derived" text={t('feedback.toDataset')} disabled={refused !== undefined} title={refused} onClick={() => setOpen(true)} />
      {made && <Button minimal icon="th" intent="success" text={t('feedback.openDatasets')} onClick={() => navigate('/dataset-manage', { search: { tableId: made } })} />}
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('feedback.toDataset')} icon="th-derived">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <p className={Classes.TEXT_MUTED}>{t('feedback.toDatasetHelp')}</p>
            <FormGroup label={t('feedback.datasetName')} labelFor="records-dataset-name" labelInfo="*" intent={missing || errors.name ? 'danger' : 'none'} helperText={missing ? t('create.required') : errors.name}>
              <InputGroup id="records-dataset-name" autoFocus value={name} maxLength={LIMITS.datasetNameMax} onChange={(e) => setName(e.target.value)} intent={missing ? 'danger' : 'none'} />
            </FormGroup>
            <Checkbox checked={withOutcomeOnly} label={t('feedback.withOutcomeOnly')} onChange={(e) => setWithOutcomeOnly(e.currentTarget.checked)} />
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text={t('create.cancel')} onClick={() => setOpen(false)} />
                <BusyButton type="submit" intent="primary" loading={isLoading} text={t('feedback.make')} />
              </>
            }
          />
        </form>
      </Dialog>
    </>
  );
}
