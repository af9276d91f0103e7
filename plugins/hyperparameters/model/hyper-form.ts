/**
 * The hyperparameter-set form without React: one row per hyperparameter the algorithm takes
 * (`algorithmHyperparameters` of core/domain, read from its training schema), or the raw JSON of
 * the set's `params`. Both give the same `params`, checked by the same `hyperparameterSetIssues`
 * (as the server checks them). Params a stored set holds that the algorithm does not take are
 * kept (`extra`) and flagged, never dropped silently.
 */
import { z } from 'zod';
import { hyperparameterParamSchema, type HyperparameterSearchMode, type HyperparameterSetParam, type HyperparameterSpec } from '@decisio/domain';

/** What the form holds for one hyperparameter (text as typed). */
export interface HyperRow {
  default: string;
  searchMode: HyperparameterSearchMode;
  /** `grid`/`choice`: values separated by commas (lists by semicolons). */
  values: string;
  /** `continuous`: the range. */
  min: string;
  max: string;
}

export const emptyRow = (): HyperRow => ({ default: '', searchMode: 'fixed', values: '', min: '', max: '' });

const show = (v: unknown) => (Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? '' : String(v));

/** Rows of `specs` filled from a stored set's `params`; the params no spec names are `extra`. */
export function formRows(specs: readonly HyperparameterSpec[], params: readonly HyperparameterSetParam[]): { rows: Record<string, HyperRow>; extra: HyperparameterSetParam[] } {
  const rows: Record<string, HyperRow> = Object.fromEntries(specs.map((s) => [s.name, emptyRow()]));
  const extra: HyperparameterSetParam[] = [];
  for (const p of params) {
    const spec = specs.find((s) => s.name === p.name);
    if (!spec || rows[p.name]!.default !== '' || rows[p.name]!.searchMode !== 'fixed') {
      extra.push(p);
      continue;
    }
    const mode = (p.searchMode ?? 'fixed') as HyperparameterSearchMode;
    const values = p.searchValues ?? [];
    rows[p.name] = {
      default: show(p.default),
      searchMode: mode,
      values: mode === 'grid' || mode === 'choice' ? values.map(show).join(spec.input === 'intList' ? '; ' : ', ') : '',
      min: mode === 'continuous' ? show(values[0]) : '',
      max: mode === 'continuous' ? show(values[1]) : '',
    };
  }
  return { rows, extra };
}

/** A typed value read as the hyperparameter takes it (text that does not read stays text, so the check names it). */
export function readValue(spec: HyperparameterSpec, text: string): unknown {
  const s = text.trim();
  switch (spec.input) {
    case 'int':
    case 'float':
      return s !== '' && Number.isFinite(Number(s)) ? Number(s) : s;
    case 'bool':
      return s === 'true' ? true : s === 'false' ? false : s;
    case 'intList': {
      const items = s.split(/[,\s]+/).filter(Boolean);
      return items.map((x) => (Number.isFinite(Number(x)) ? Number(x) : x));
    }
    default:
      return s;
  }
}

const TYPE_OF: Record<HyperparameterSpec['input'], string> = { int: 'int', float: 'float', bool: 'bool', choice: 'string', intList: 'list' };

/** The set's `params` from the rows (a row with no default and a fixed mode is left out), then the extra ones. */
export function formParams(specs: readonly HyperparameterSpec[], rows: Record<string, HyperRow>, extra: readonly HyperparameterSetParam[]): HyperparameterSetParam[] {
  const out: HyperparameterSetParam[] = [];
  for (const spec of specs) {
    const r = rows[spec.name] ?? emptyRow();
    if (r.default.trim() === '' && r.searchMode === 'fixed') continue;
    const p: HyperparameterSetParam = { name: spec.name, type: TYPE_OF[spec.input] };
    if (r.default.trim() !== '') p.default = readValue(spec, r.default);
    p.searchMode = r.searchMode;
    if (r.searchMode === 'continuous') p.searchValues = [readValue(spec, r.min), readValue(spec, r.max)];
    else if (r.searchMode !== 'fixed') p.searchValues = r.values.split(spec.input === 'intList' ? ';' : ',').map((x) => x.trim()).filter(Boolean).map((x) => readValue(spec, x));
    out.push(p);
  }
  return [...out, ...extra];
}

const paramsSchema = z.array(hyperparameterParamSchema);

/** Raw JSON read as a set's `params` (the same shape the server takes): the params, or why not. */
export function parseParamsJson(text: string): { params: HyperparameterSetParam[] } | { error: 'json'; message: string } | { error: 'shape' } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { error: 'json', message: (err as Error).message };
  }
  const r = paramsSchema.safeParse(raw);
  return r.success ? { params: r.data } : { error: 'shape' };
}
