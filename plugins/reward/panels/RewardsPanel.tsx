import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Callout, Card, HTMLTable, InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { MODELLING_LIMITS } from '@decisio/domain';
import { BusyButton, CodeEditor, FormErrorCallout, isApiError, useNotify, useProjectEditRight, useUnsavedChangesGuard, type CodeMarker, type PanelProps } from '@decisio/sdk-plugin';
import { rewardApi } from '../api';
import { useRewardT } from '../i18n';
import { DeleteConfirm, Field, ListStates, LoadFailure, NoSolution, serverErrors, trainingsApi, useProjectId, useSolutionId, type FormErrors, type ObjectiveRow, type TryRewardReply } from '@decisio/sdk-plugin/trainings';

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

/** Whether a draft differs from the reward as it was loaded or last saved. */
const changed = (a: Draft, b: Draft) => a.name !== b.name || a.description !== b.description || JSON.stringify(a.files) !== JSON.stringify(b.files);

const fmt = (v: number) => (Number.isFinite(v) ? (Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : v.toFixed(4)) : '—');

/** Bars of the reward histogram (measured counts), with its range on the axis. */
function Histogram({ edges, counts, label }: { edges: number[]; counts: number[]; label: string }) {
  const max = Math.max(1, ...counts);
  const W = 480;
  const H = 120;
  const bw = W / Math.max(1, counts.length);
  return (
    <svg viewBox={`0 0 ${W} ${H + 18}`} width="100%" style={{ maxWidth: W }} role="img" aria-label={label} data-testid="reward-try-histogram" className="modelling-histogram">
      {counts.map((c, i) => {
        const h = (c / max) * H;
        return (
          <rect key={i} x={i * bw + 1} y={H - h} width={Math.max(1, bw - 2)} height={h} className="modelling-histogram-bar">
            <title>{`[${fmt(edges[i]!)}, ${fmt(edges[i + 1]!)}): ${c}`}</title>
          </rect>
        );
      })}
      <line x1={0} x2={W} y1={H} y2={H} className="modelling-histogram-axis" />
      <text x={0} y={H + 14} className="modelling-histogram-text">{fmt(edges[0]!)}</text>
      <text x={W} y={H + 14} textAnchor="end" className="modelling-histogram-text">{fmt(edges[edges.length - 1]!)}</text>
    </svg>
  );
}

/** The result of "try on sample data": the reward's distribution, or its error with the line. */
function TryResult({ result }: { result: TryRewardReply }) {
  const { t } = useRewardT();
  if (!result.ok)
    return (
      <Callout intent="danger" icon="error" title={result.error.line ? t('reward.tryErrorAt', { file: result.error.file ?? PRIMARY, line: result.error.line }) : t('reward.tryError')} data-testid="reward-try-error" data-line={result.error.line ?? ''}>
        <pre className="modelling-log">{result.error.message}</pre>
      </Callout>
    );
  const s = result.summary;
  return (
    <Card compact data-testid="reward-try-summary" data-count={s.count} data-max={s.max} data-mean={s.mean}>
      <strong>{t('reward.tryTitle', { rows: result.rows, source: result.source.name })}</strong>
      <HTMLTable compact>
        <thead>
          <tr>
            {(['count', 'mean', 'std', 'min', 'median', 'max'] as const).map((k) => (
              <th key={k}>{t(`reward.stats.${k}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{s.count}</td>
            <td>{fmt(s.mean)}</td>
            <td>{fmt(s.std)}</td>
            <td>{fmt(s.min)}</td>
            <td>{fmt(s.median)}</td>
            <td>{fmt(s.max)}</td>
          </tr>
        </tbody>
      </HTMLTable>
      <Histogram edges={result.histogram.edges} counts={result.histogram.counts} label={t('reward.histogram')} />
      <p className="bp6-text-muted">{t('reward.tryNodes', { nodes: result.nodes.join(', ') })}</p>
    </Card>
  );
}

/** The check of a saved reward (server `checkReward`): a "broken" tag with its message, or "not checked" with why. */
export function RewardCheckTag({ row }: { row: Pick<ObjectiveRow, 'checkState' | 'checkMessage'> }) {
  const { t } = useRewardT();
  if (row.checkState === 'broken')
    return (
      <Tag intent="danger" minimal icon="error" title={t('reward.brokenHint', { message: row.checkMessage ?? '' })} data-testid="reward-broken">
        {t('reward.broken')}
      </Tag>
    );
  if (row.checkState === 'unchecked')
    return (
      <Tag minimal icon="help" title={t('reward.uncheckedHint', { message: row.checkMessage ?? '' })} data-testid="reward-unchecked">
        {t('reward.unchecked')}
      </Tag>
    );
  return null;
}

/**
 * Editor of one reward: name, description, code files (reward.py primary) and the policies using
 * it. Tells `onDirtyChange` whether its draft differs from the reward as loaded or last saved
 * (`false` again when it goes away). `refused`: why the user may not change the project (view
 * right, locked): Save and Delete are disabled with it as their tooltip.
 */
function RewardEditor({
  solutionId,
  draft: initial,
  onSaved,
  onDeleted,
  onDirtyChange,
  refused,
}: {
  solutionId: string;
  refused: string | undefined;
  draft: Draft;
  onSaved: (id: string) => void;
  onDeleted: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { t } = useRewardT();
  const notify = useNotify();
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const dirty = changed(draft, saved);
  const tell = useRef(onDirtyChange);
  tell.current = onDirtyChange;
  useEffect(() => tell.current(dirty), [dirty]);
  useEffect(() => () => tell.current(false), []);
  const [tab, setTab] = useState(PRIMARY);
  const [newFile, setNewFile] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [confirm, setConfirm] = useState(false);
  const detail = rewardApi.endpoints['reward/get'].useQuery({ id: initial.id ?? '' }, { skip: !initial.id });
  const [create, creating] = rewardApi.endpoints['reward/create'].useMutation();
  const [edit, editing] = rewardApi.endpoints['reward/edit'].useMutation();
  const [remove] = rewardApi.endpoints['reward/delete'].useMutation();
  const policies = detail.data?.policyList ?? [];
  const [check, setCheck] = useState<Pick<ObjectiveRow, 'checkState' | 'checkMessage'> | null>(null);
  const shown = check ?? (detail.data ? { checkState: detail.data.checkState ?? null, checkMessage: detail.data.checkMessage ?? null } : null);
  const [tryReward, trying] = rewardApi.endpoints['reward/try'].useMutation();
  const [tried, setTried] = useState<TryRewardReply | null>(null);
  const [tryFailure, setTryFailure] = useState<string | null>(null);
  const markers = useMemo<CodeMarker[]>(
    () => (tried && !tried.ok && tried.error.line && (tried.error.file ?? PRIMARY) === tab ? [{ line: tried.error.line, message: tried.error.message }] : []),
    [tried, tab],
  );
  const runTry = async () => {
    setTryFailure(null);
    try {
      const r = await tryReward({ solutionId, files: draft.files }).unwrap();
      setTried(r);
      if (!r.ok && r.error.file && r.error.file in draft.files) setTab(r.error.file);
    } catch (err) {
      setTried(null);
      if (!isApiError(err) || !err.handled) setTryFailure(isApiError(err) ? err.message : String(err));
    }
  };

  const save = async () => {
    if (refused !== undefined) {
      notify({ message: refused, intent: 'warning', icon: 'warning-sign' });
      return;
    }
    const e = validateReward(draft);
    setErrors(e);
    if (Object.keys(e).length) return;
    const sent = draft;
    const body = { name: draft.name.trim(), description: draft.description, files: draft.files };
    try {
      const r = draft.id ? await edit({ ...body, id: draft.id }).unwrap() : await create({ ...body, solutionId }).unwrap();
      setSaved({ ...sent, id: r.id });
      // Saved in any case (nothing lost); a reward that failed its check says so, not "Saved".
      setCheck({ checkState: r.checkState ?? null, checkMessage: r.checkMessage ?? null });
      if (r.checkState === 'broken') notify({ message: t('reward.savedBroken', { message: r.checkMessage ?? '' }), intent: 'warning', icon: 'warning-sign' });
      else notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
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
      <FormErrorCallout message={errors._form} />
      {shown?.checkState === 'broken' && (
        <Callout intent="danger" icon="error" title={t('reward.broken')} data-testid="reward-check-broken">
          {t('reward.brokenHint', { message: shown.checkMessage ?? '' })}
        </Callout>
      )}
      {shown?.checkState === 'unchecked' && (
        <Callout intent="warning" icon="help" title={t('reward.unchecked')} data-testid="reward-check-unchecked">
          {t('reward.uncheckedHint', { message: shown.checkMessage ?? '' })}
        </Callout>
      )}
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
        <CodeEditor
          key={tab}
          label={tab}
          testId="reward-code"
          value={draft.files[tab]!}
          markers={markers}
          onChange={(code) => setDraft((d) => ({ ...d, files: { ...d.files, [tab]: code } }))}
          onSave={() => void save()}
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
          <Button icon="trash" intent="danger" disabled={policies.length > 0 || refused !== undefined} title={refused ?? (policies.length > 0 ? t('reward.referenced') : undefined)} onClick={() => setConfirm(true)}>
            {t('common.delete')}
          </Button>
        )}
        <BusyButton icon="play" loading={trying.isLoading} disabled={!(PRIMARY in draft.files)} onClick={() => void runTry()} data-testid="reward-try" title={t('reward.tryHint')}>
          {t('reward.try')}
        </BusyButton>
        <BusyButton icon="floppy-disk" intent="primary" loading={creating.isLoading || editing.isLoading} disabled={refused !== undefined} title={refused} onClick={() => void save()} data-testid="reward-save">
          {t('common.save')}
        </BusyButton>
      </div>
      {tryFailure && (
        <Callout intent="danger" icon="error" title={t('reward.tryFailed')} data-testid="reward-try-failure">
          {tryFailure}
        </Callout>
      )}
      {trying.isLoading && !tried && <Spinner size={20} aria-label={t('reward.trying')} />}
      {tried && <TryResult result={tried} />}
      {draft.id && (
        <div>
          <strong>{t('reward.policies')}</strong>{' '}
          {policies.length === 0 ? <span className="bp6-text-muted">{t('reward.noPolicies')}</span> : policies.map((p) => <Tag key={p.id} minimal style={{ marginRight: 4 }}>{p.name}</Tag>)}
          {policies.length > 0 && <p className="bp6-text-muted">{t('reward.referenced')}</p>}
        </div>
      )}
      <DeleteConfirm name={confirm ? draft.name : null} onConfirm={() => void doDelete()} onCancel={() => setConfirm(false)} />
    </Card>
  );
}

/** `/workflow/objective`: the solution's rewards and the code editor. */
export function RewardsPanel(_props: PanelProps) {
  const solutionId = useSolutionId();
  if (!solutionId) return <NoSolution />;
  // One screen per solution: another starts with no reward chosen and no editor of this one's open.
  return <Rewards key={solutionId} solutionId={solutionId} />;
}

function Rewards({ solutionId }: { solutionId: string }) {
  const { t } = useRewardT();
  const list = trainingsApi.endpoints['trainings/objectives'].useQuery({ solutionId });
  const [selected, setSelected] = useState<string | 'new' | null>(null);
  const detail = rewardApi.endpoints['reward/get'].useQuery({ id: selected ?? '' }, { skip: !selected || selected === 'new' });
  // The open editor's unsaved edits: a navigation, closing the page, another reward or "New
  // reward" asks before they are lost.
  const [dirty, setDirty] = useState(false);
  const unsaved = useUnsavedChangesGuard(dirty);
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);
  // A view collaborator (or a locked project) may read the rewards but not add or change one;
  // refused only once known (not while the project is read): the server decides in any case.
  const refused = useProjectEditRight(useProjectId()).reason;
  const choose = async (next: string | 'new') => {
    if (next === selected) return;
    if (await unsaved.confirmDiscard()) setSelected(next);
  };
  const newButton = (
    <Button icon="add" intent="primary" disabled={refused !== undefined} title={refused} onClick={() => void choose('new')} data-testid="modelling-new">
      {t('reward.new')}
    </Button>
  );
  let editor = <NonIdealState icon="code" title={t('reward.select')} />;
  if (selected === 'new') editor = <RewardEditor key="new" solutionId={solutionId} draft={{ id: null, name: '', description: '', files: { [PRIMARY]: TEMPLATE } }} onSaved={(id) => setSelected(id)} onDeleted={() => setSelected(null)} onDirtyChange={onDirtyChange} refused={refused} />;
  // The chosen reward's own detail (`currentData`): never the previously chosen one's editor under
  // this one's name while it loads (edits typed there were dropped when this one came).
  else if (selected && detail.currentData) {
    const d = detail.currentData;
    editor = (
      <RewardEditor
        key={d.id}
        solutionId={solutionId}
        draft={{ id: d.id, name: d.name, description: d.description ?? '', files: d.files ?? { [PRIMARY]: '' } }}
        onSaved={() => undefined}
        onDeleted={() => setSelected(null)}
        onDirtyChange={onDirtyChange}
        refused={refused}
      />
    );
  } else if (selected && detail.isError) editor = <LoadFailure error={detail.error} onRetry={() => void detail.refetch()} testId="reward-load-failed" />;
  else if (selected) editor = <Spinner size={24} />;

  return (
    <div className="modelling-panel" data-testid="modelling-reward">
      <div className="modelling-toolbar">
        <span className="spacer" />
        {newButton}
      </div>
      {selected === 'new' && list.currentData?.total === 0 ? (
        editor
      ) : (
        <ListStates query={list} emptyTitle={t('empty.reward')} emptyHint={t('empty.rewardHint')} emptyIcon="code" action={newButton}>
          <div className="modelling-split">
            <Menu aria-label={t('panels.reward')}>
              {(list.currentData?.rows ?? []).map((o) => (
                <MenuItem
                  key={o.id}
                  text={o.name}
                  title={o.description ? `${o.name}: ${o.description}` : o.name}
                  labelElement={<RewardCheckTag row={o} />}
                  active={selected === o.id}
                  onClick={() => void choose(o.id)}
                  icon="code"
                  data-testid="reward-item"
                  data-check={o.checkState ?? ''}
                />
              ))}
            </Menu>
            {editor}
          </div>
        </ListStates>
      )}
      {unsaved.dialog}
    </div>
  );
}
