import { useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tab, Tabs, Tag, TextArea } from '@blueprintjs/core';
import { MODELLING_LIMITS } from '@decisio/domain';
import { isApiError, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { modellingApi } from '../api';
import { useModellingT } from '../i18n';
import type { FormErrors } from '../model/forms';
import { Field, ListStates, NoSolution, serverErrors, useSolutionId } from './shared';

const PRIMARY = 'reward.py';
const TEMPLATE = `def get_reward(data):\n    """Reward of one step; data holds the nodes' values by name."""\n    return 0.0\n`;

interface Draft {
  id: string | null;
  name: string;
  description: string;
  files: Record<string, string>;
}

/** Checks a reward before saving (spec workflow §5 "Reward"). */
export function validateReward(d: Draft): FormErrors {
  const e: FormErrors = {};
  if (!d.name.trim()) e.name = 'errors.required';
  else if (d.name.trim().length > MODELLING_LIMITS.objectiveName) e.name = 'errors.nameTooLong';
  if (!(PRIMARY in d.files)) e.files = 'errors.primaryFile';
  else if (!d.files[PRIMARY]!.trim()) e.files = 'errors.required';
  return e;
}

/** Editor of one reward: name, description, code files (reward.py primary) and the policies using it. */
function RewardEditor({ solutionId, draft: initial, onSaved, onDeleted }: { solutionId: string; draft: Draft; onSaved: (id: string) => void; onDeleted: () => void }) {
  const { t } = useModellingT();
  const notify = useNotify();
  const [draft, setDraft] = useState(initial);
  const [tab, setTab] = useState(PRIMARY);
  const [newFile, setNewFile] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [confirm, setConfirm] = useState(false);
  const detail = modellingApi.endpoints['modelling/objective'].useQuery({ id: initial.id ?? '' }, { skip: !initial.id });
  const [create, creating] = modellingApi.endpoints['modelling/objectiveCreate'].useMutation();
  const [edit, editing] = modellingApi.endpoints['modelling/objectiveEdit'].useMutation();
  const [remove] = modellingApi.endpoints['modelling/objectiveDelete'].useMutation();
  const policies = detail.data?.policyList ?? [];

  const save = async () => {
    const e = validateReward(draft);
    setErrors(e);
    if (Object.keys(e).length) return;
    const body = { name: draft.name.trim(), description: draft.description, files: draft.files };
    try {
      const r = draft.id ? await edit({ ...body, id: draft.id }).unwrap() : await create({ ...body, solutionId }).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      setDraft((d) => ({ ...d, id: r.id }));
      onSaved(r.id);
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  const addFile = () => {
    const n = newFile.trim();
    if (!n || n in draft.files) {
      setErrors({ newFile: 'errors.fileName' });
      return;
    }
    setDraft((d) => ({ ...d, files: { ...d.files, [n]: '' } }));
    setTab(n);
    setNewFile('');
    setErrors({});
  };
  const removeFile = (n: string) => {
    setDraft((d) => {
      const files = { ...d.files };
      delete files[n];
      return { ...d, files };
    });
    setTab(PRIMARY);
  };
  const doDelete = async () => {
    setConfirm(false);
    try {
      await remove({ id: draft.id! }).unwrap();
      notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' });
      onDeleted();
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
    }
  };

  return (
    <Card compact style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="reward-editor">
      {errors._form && <Callout intent="danger" icon="error">{errors._form}</Callout>}
      <div className="modelling-form-grid">
        <Field label={t('common.name')} id="reward-name" name="name" errors={errors}>
          <InputGroup id="reward-name" value={draft.name} maxLength={MODELLING_LIMITS.objectiveName + 5} onChange={(e) => setDraft({ ...draft, name: e.target.value })} data-testid="reward-name" />
        </Field>
        <Field label={t('common.description')} id="reward-desc" name="description" errors={errors}>
          <InputGroup id="reward-desc" value={draft.description} maxLength={MODELLING_LIMITS.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
        </Field>
      </div>
      <Field label={t('reward.files')} id="reward-files" name="files" errors={errors}>
        <Tabs id="reward-files" selectedTabId={tab} onChange={(id) => setTab(String(id))}>
          {Object.keys(draft.files).map((n) => (
            <Tab key={n} id={n} title={n} tagContent={n === PRIMARY ? t('reward.primary') : undefined} />
          ))}
        </Tabs>
      </Field>
      {tab in draft.files && (
        <TextArea
          className="modelling-code"
          fill
          spellCheck={false}
          aria-label={tab}
          value={draft.files[tab]}
          data-testid="reward-code"
          onChange={(e) => setDraft({ ...draft, files: { ...draft.files, [tab]: e.target.value } })}
          onKeyDown={(e) => {
            if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey) {
              // Tab indents; Escape then Tab leaves the editor (keyboard users).
              e.preventDefault();
              const el = e.currentTarget;
              const { selectionStart: a, selectionEnd: b, value } = el;
              const next = `${value.slice(0, a)}    ${value.slice(b)}`;
              setDraft({ ...draft, files: { ...draft.files, [tab]: next } });
              requestAnimationFrame(() => el.setSelectionRange(a + 4, a + 4));
            } else if (e.key === 'Escape') {
              e.currentTarget.blur();
            } else if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
            }
          }}
        />
      )}
      <div className="modelling-toolbar">
        <Field label="" id="reward-new-file" name="newFile" errors={errors} inline>
          <InputGroup id="reward-new-file" placeholder={t('reward.fileName')} value={newFile} onChange={(e) => setNewFile(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && addFile()} />
        </Field>
        <Button icon="add" onClick={addFile}>
          {t('reward.addFile')}
        </Button>
        {tab !== PRIMARY && (
          <Button icon="remove" onClick={() => removeFile(tab)}>
            {t('reward.removeFile')}
          </Button>
        )}
        <span className="spacer" />
        {draft.id && (
          <Button icon="trash" intent="danger" disabled={policies.length > 0} title={policies.length > 0 ? t('reward.referenced') : undefined} onClick={() => setConfirm(true)}>
            {t('common.delete')}
          </Button>
        )}
        <Button icon="floppy-disk" intent="primary" loading={creating.isLoading || editing.isLoading} onClick={() => void save()} data-testid="reward-save">
          {t('common.save')}
        </Button>
      </div>
      {draft.id && (
        <div>
          <strong>{t('reward.policies')}</strong>{' '}
          {policies.length === 0 ? <span className="bp6-text-muted">{t('reward.noPolicies')}</span> : policies.map((p) => <Tag key={p.id} minimal style={{ marginRight: 4 }}>{p.name}</Tag>)}
          {policies.length > 0 && <p className="bp6-text-muted">{t('reward.referenced')}</p>}
        </div>
      )}
      <Alert isOpen={confirm} intent="danger" icon="trash" confirmButtonText={t('common.delete')} cancelButtonText={t('common.cancel')} onConfirm={() => void doDelete()} onCancel={() => setConfirm(false)} canEscapeKeyCancel>
        {t('common.deleteConfirm', { name: draft.name })}
      </Alert>
    </Card>
  );
}

/** `/workflow/objective`: the solution's rewards and the code editor. */
export function RewardsPanel(_props: PanelProps) {
  const { t } = useModellingT();
  const solutionId = useSolutionId();
  const list = modellingApi.endpoints['modelling/objectives'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const [selected, setSelected] = useState<string | 'new' | null>(null);
  const detail = modellingApi.endpoints['modelling/objective'].useQuery({ id: selected ?? '' }, { skip: !selected || selected === 'new' });
  useEffect(() => setSelected(null), [solutionId]);
  if (!solutionId) return <NoSolution />;
  const newButton = (
    <Button icon="add" intent="primary" onClick={() => setSelected('new')} data-testid="modelling-new">
      {t('reward.new')}
    </Button>
  );
  let editor = <NonIdealState icon="code" title={t('reward.select')} />;
  if (selected === 'new') editor = <RewardEditor key="new" solutionId={solutionId} draft={{ id: null, name: '', description: '', files: { [PRIMARY]: TEMPLATE } }} onSaved={(id) => setSelected(id)} onDeleted={() => setSelected(null)} />;
  else if (selected && detail.isFetching && !detail.data) editor = <Spinner size={24} />;
  else if (selected && detail.data)
    editor = (
      <RewardEditor
        key={detail.data.id}
        solutionId={solutionId}
        draft={{ id: detail.data.id, name: detail.data.name, description: detail.data.description ?? '', files: detail.data.files ?? { [PRIMARY]: '' } }}
        onSaved={() => undefined}
        onDeleted={() => setSelected(null)}
      />
    );

  return (
    <div className="modelling-panel" data-testid="modelling-reward">
      <div className="modelling-toolbar">
        <span className="spacer" />
        {newButton}
      </div>
      {selected === 'new' && list.data?.total === 0 ? (
        editor
      ) : (
        <ListStates query={list} emptyTitle={t('empty.reward')} emptyHint={t('empty.rewardHint')} emptyIcon="code" action={newButton}>
          <div className="modelling-split">
            <Menu aria-label={t('panels.reward')}>
              {(list.data?.rows ?? []).map((o) => (
                <MenuItem key={o.id} text={o.name} label={o.description ?? undefined} active={selected === o.id} onClick={() => setSelected(o.id)} icon="code" />
              ))}
            </Menu>
            {editor}
          </div>
        </ListStates>
      )}
    </div>
  );
}
