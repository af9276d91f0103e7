/** Pieces every modelling screen uses: the solution from the link, job states, list states, state tags, progress, form fields and their errors. */
import type { ReactNode } from 'react';
import { Button, Callout, Checkbox, FormGroup, Intent, NonIdealState, ProgressBar, Spinner, Tag, type IconName } from '@blueprintjs/core';
import { Alert, isApiError, useNotify, useProjectLink } from '../index';
import { useTrainingsT } from './i18n';
import { trainingsApi, type WorkerRow } from './api';
import { ErrorCode, TRAINING_ALGORITHMS, type TrainFormErrors, type TrainingAlgorithmKind } from '@decisio/domain';
import './trainings.css';

/** Errors of a form by field: translation keys of the kit (`errors.*`) or the server's messages. */
export type FormErrors = TrainFormErrors;

/** The job state after a manual stop (server `JobState.stoppedManually`). */
export const STOPPED_MANUALLY = 'successful by manual stop';

/** Running states of a job (spec §4): progress shows, stop is possible. */
export const ACTIVE = new Set(['waiting', 'processing', 'restoring', 'stopping', 'debugging']);

/**
 * The `<option>`s of the algorithms a kind of training may use, in the user's language; with
 * `graphDefault`, a policy's first option is `''`, the graph's default the server takes
 * (`defaultPolicyAlgorithm`: SAC when every decided field is continuous, else PPO).
 */
export function AlgorithmOptions({ kind, graphDefault = false }: { kind: TrainingAlgorithmKind; graphDefault?: boolean }) {
  const { t } = useTrainingsT();
  return (
    <>
      {graphDefault && kind === 'policy' && <option value="">{t('algorithms.graphDefault')}</option>}
      {TRAINING_ALGORITHMS[kind].map((a) => (
        <option key={a} value={a}>
          {t(`algorithms.${a}` as Parameters<typeof t>[0])}
        </option>
      ))}
    </>
  );
}

/** Duration in ms as `1d 2h 3m 4s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', `${s % 60}s`].filter(Boolean);
  return parts.slice(0, 3).join(' ');
}

/** The solution of the current link (`solutionId` query parameter). */
export function useSolutionId(): string | undefined {
  return useProjectLink().params.solutionId;
}

/** The project of the current link (`projectId` query parameter). */
export function useProjectId(): string | undefined {
  return useProjectLink().params.projectId;
}

/** The choice of an initial dataset: the environment's own data (empty value), or a dataset of the project (name and rows). */
export function DatasetOptions({ rows, emptyLabel }: { rows: ReadonlyArray<{ tableId: string; name: string; amount: number }>; emptyLabel: string }) {
  return (
    <>
      <option value="">{emptyLabel}</option>
      {rows.map((d) => (
        <option key={d.tableId} value={d.tableId}>
          {`${d.name} (${d.amount})`}
        </option>
      ))}
    </>
  );
}

/** Shown when the page was opened without a solution. */
export function NoSolution() {
  const { t } = useTrainingsT();
  return <NonIdealState icon="folder-open" title={t('common.noSolution')} description={t('common.noSolutionHint')} />;
}

/** A query that could not load: the server's reason and a retry. */
export function LoadFailure({ error, onRetry, testId }: { error: unknown; onRetry(): void; testId?: string }) {
  const { t } = useTrainingsT();
  return (
    <Callout intent="danger" icon="error" title={t('common.loadFailed')} data-testid={testId}>
      {isApiError(error) ? error.message : null}{' '}
      <Button minimal small onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </Callout>
  );
}

/**
 * Loading, error (with retry) and empty states of a list query; renders `children` when there are
 * rows. It waits for `currentData`, the answer to the current arguments: after a switch of
 * solution the previous solution's rows (still the hook's `data`) are never shown, nor acted on.
 */
export function ListStates(props: {
  query: { error?: unknown; currentData?: { total: number } | undefined; refetch: () => unknown };
  emptyTitle: string;
  emptyHint: string;
  emptyIcon: Parameters<typeof NonIdealState>[0]['icon'];
  action?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTrainingsT();
  const { query } = props;
  if (query.error) return <LoadFailure error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.currentData) return <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />;
  if (query.currentData.total === 0) return <NonIdealState icon={props.emptyIcon} title={props.emptyTitle} description={props.emptyHint} action={props.action as never} />;
  return <>{props.children}</>;
}

const INTENT: Record<string, Intent> = {
  successful: 'success',
  [STOPPED_MANUALLY]: 'success',
  completed: 'success',
  failure: 'danger',
  failed: 'danger',
  processing: 'primary',
  restoring: 'primary',
  debugging: 'warning',
  stopping: 'warning',
};

/** A job or record state as a coloured tag. */
export function StateTag({ state }: { state: string }) {
  const { t } = useTrainingsT();
  const key = `states.${state === STOPPED_MANUALLY ? 'manualStop' : state}` as Parameters<typeof t>[0];
  const label = t(key);
  return (
    <Tag minimal intent={INTENT[state] ?? 'none'} data-testid="state-tag">
      {label === key ? state : label}
    </Tag>
  );
}

/** States of a job that ended having done all its work. */
const DONE = new Set(['successful', 'completed']);

/**
 * Progress bar while a job runs, with how long it has run under it. A job that has ended shows
 * how far it got (all of it when it succeeded: 100%; a stopped or failed one where it stopped,
 * when known) in its state's colour, its duration under it; one never run or of unknown
 * progress shows its duration alone.
 */
export function ProgressCell({ state, progress, durationMs }: { state: string; progress: number | null; durationMs: number | null }) {
  const { locale } = useTrainingsT();
  const v = progress === null ? undefined : Math.max(0, Math.min(1, progress > 1 ? progress / 100 : progress));
  if (ACTIVE.has(state)) {
    return (
      <div style={{ minWidth: 120 }}>
        <ProgressBar value={v} intent="primary" animate={state !== 'waiting'} stripes={v === undefined} />
        <small className="bp6-text-muted">{formatDuration(durationMs)}</small>
      </div>
    );
  }
  const reached = DONE.has(state) ? 1 : v;
  if (reached === undefined || state === 'normal') return <span>{formatDuration(durationMs)}</span>;
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(reached);
  return (
    <div style={{ minWidth: 120 }} data-testid="progress-done">
      <ProgressBar value={reached} intent={INTENT[state] ?? 'none'} animate={false} stripes={false} />
      <small className="bp6-text-muted">
        {percent} · {formatDuration(durationMs)}
      </small>
    </div>
  );
}

/**
 * `act(call, ok, icon?)`: awaits a call of a modelling list (process, copy, restore, delete), then
 * toasts `ok`, or "Failed: <the catalogue's text>" unless the transport already told the user
 * (`handled`). Never throws; resolves to whether the call succeeded.
 */
export function useAct(): (fn: () => Promise<unknown>, ok: string, icon?: IconName) => Promise<boolean> {
  const { t } = useTrainingsT();
  const notify = useNotify();
  return async (fn, ok, icon = 'tick') => {
    try {
      await fn();
      notify({ message: ok, intent: 'success', icon });
      return true;
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
      return false;
    }
  };
}

/** A form field with its client or server error under it. */
export function Field(props: { label: string; id: string; errors: FormErrors; name: string; children: ReactNode; inline?: boolean; hint?: string | undefined }) {
  const { t } = useTrainingsT();
  const err = props.errors[props.name];
  // An error replaces the field's hint while it stands; a translation key may follow a setting's name (`epoch: errors.hyperInvalid`).
  const key = err ? /^(?:([\w.-]+): )?(errors\.[\w.]+)$/.exec(err) : null;
  const text = err ? (key ? `${key[1] ? `${key[1]}: ` : ''}${t(key[2] as Parameters<typeof t>[0])}` : err) : props.hint;
  return (
    <FormGroup label={props.label} labelFor={props.id} intent={err ? 'danger' : 'none'} helperText={text} inline={props.inline}>
      {props.children}
    </FormGroup>
  );
}

/**
 * The project's default algorithm image version (null: any machine, or no project in the link):
 * a training of the project runs only on a machine of that engine version.
 */
export function useProjectVersion(): string | null {
  const projectId = useProjectId();
  const project = trainingsApi.endpoints['trainings/project'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  return project.data?.imageVersion ?? null;
}

/** Why a machine cannot take a training of the project: offline, or of another engine version than `version` (null: it can). */
export function workerRefusal(w: WorkerRow, version: string | null): 'offline' | 'otherVersion' | null {
  if (w.status !== 'online') return 'offline';
  if (version && w.engineVersion !== version) return 'otherVersion';
  return null;
}

/**
 * Server field errors (already translated) of a failed call, and its message under `_form`: always
 * when no field is named, and beside the fields for a code other than `paramInvalid`, whose own
 * message says why (e.g. `trainAlgorithmUnfit` marks the algorithm and says SAC needs continuous
 * decisions); `paramInvalid`'s generic text would only repeat the fields'.
 */
export function serverErrors(err: unknown): FormErrors {
  if (!isApiError(err)) return { _form: String(err) };
  if (err.errors && Object.keys(err.errors).length) {
    return err.code === ErrorCode.paramInvalid || !err.message ? { ...err.errors } : { ...err.errors, _form: err.message };
  }
  return { _form: err.message };
}

/** Date and time in the user's language. */
export function formatTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

/**
 * The delete confirmation of a record (open while `name` is set): the button confirms, Escape
 * cancels (it opens with the focus on Cancel, the SDK's `Alert`); `acknowledge` adds the check box
 * the server asks for when records depend on it.
 */
export function DeleteConfirm(props: { name: string | null; loading?: boolean; acknowledge?: { checked: boolean; onChange: (checked: boolean) => void }; onConfirm: () => void; onCancel: () => void; children?: ReactNode }) {
  const { t } = useTrainingsT();
  return (
    <Alert
      isOpen={props.name !== null}
      intent="danger"
      icon="trash"
      loading={props.loading}
      confirmButtonText={t('common.delete')}
      cancelButtonText={t('common.cancel')}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
      canEscapeKeyCancel
    >
      <p>{props.name !== null ? t('common.deleteConfirm', { name: props.name }) : null}</p>
      {props.children}
      {props.acknowledge && <Checkbox checked={props.acknowledge.checked} label={t('common.acknowledge')} onChange={(e) => props.acknowledge!.onChange(e.currentTarget.checked)} data-testid="delete-ack" />}
    </Alert>
  );
}
