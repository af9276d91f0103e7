import { iso, parseJson, type Row } from './common';

const JSON_COLUMNS = new Set(['config', 'data', 'files', 'params', 'result', 'graph', 'correlation', 'job_metrics', 'node_scores']);
const DATE_COLUMNS = new Set(['created_at', 'updated_at', 'start_time', 'end_time', 'job_started_at', 'job_ended_at']);
const HIDDEN = new Set(['tenant_id']);

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Display id prefixes of the spec (workflow §3): E-, P-, PT-, SD-, DD-. */
export const ID_PREFIX: Record<string, string> = { simulators: 'E-', policies: 'P-', parameter_searches: 'PT-', simulation: 'SD-', decision: 'DD-' };

/**
 * The id key of each record kind besides `id` (the name a create call of another kind takes:
 * `scheme/create` answers `schemeId` for `trainSimulator/create`), so replies name ids alike.
 */
export const ID_ALIAS: Record<string, string> = { simulators: 'simulatorId', policies: 'policyId', parameter_searches: 'parameterSearchId', deductions: 'deductionId' };

/** A record row as the API shows it: camelCase, JSON parsed, ISO dates, no tenant; `alias` repeats the id under that key. */
export function presentRow(row: Row, options: { omit?: readonly string[]; alias?: string } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.alias && row.id !== undefined) out[options.alias] = row.id;
  for (const [k, v] of Object.entries(row)) {
    if (HIDDEN.has(k) || options.omit?.includes(k)) continue;
    if (JSON_COLUMNS.has(k)) out[camel(k)] = parseJson(v, null);
    else if (DATE_COLUMNS.has(k)) out[camel(k)] = iso(v);
    else out[camel(k)] = v;
  }
  return out;
}

/** A training record as the API shows it. */
export type TrainingView = Record<string, unknown> & { id: string; state: string; progress: number | null; durationMs: number | null; score?: unknown };

/** A training record with its job's live state, progress, duration and display code. */
export function presentTraining(table: string, row: Row): TrainingView {
  const base = presentRow(row, { omit: ['job_state', 'job_progress', 'job_error', 'job_started_at', 'job_ended_at', 'job_metrics', 'job_worker_id'] });
  const state = (row.job_state as string | null) ?? row.state;
  const start = iso(row.job_started_at);
  const end = iso(row.job_ended_at);
  const prefix = ID_PREFIX[table === 'deductions' ? String(row.kind) : table] ?? '';
  let config = base.config as Record<string, unknown> | null | undefined;
  if (config && typeof config === 'object' && config.git && typeof config.git === 'object') {
    // Never echo git credentials.
    const { password: _p, ...git } = config.git as Record<string, unknown>;
    config = { ...config, git: { ...git, password: _p ? '******' : undefined } };
  }
  const alias = ID_ALIAS[table];
  return {
    ...base,
    ...(config !== undefined ? { config } : {}),
    ...(alias ? { [alias]: String(row.id) } : {}),
    id: String(row.id),
    code: `${prefix}${String(row.id).slice(0, 8).toUpperCase()}`,
    state,
    progress: row.job_progress === null || row.job_progress === undefined ? null : Number(row.job_progress),
    metrics: parseJson<Record<string, number>>(row.job_metrics, {}),
    error: row.job_error ?? null,
    /** The worker ("virtual machine") that runs or ran the job; null while it waits. */
    workerId: row.job_worker_id ?? null,
    startTime: start,
    endTime: end,
    durationMs: start ? (end ? Date.parse(end) : Date.now()) - Date.parse(start) : null,
  };
}
