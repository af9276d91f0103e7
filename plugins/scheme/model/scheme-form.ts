/**
 * The scheme form without React (spec workflow §3 "Scheme", §5): it starts from the data — the
 * fields of the solution's correlation table (`solution/getTableCorrelation` with `withTable`),
 * the datetime field's range — and the decision graph; each field gets a dimension, a type and
 * an aggregation chosen from the lists the processing accepts (`SCHEME_*` of core/domain);
 * derived fields are `a <op> b` of two fields. `schemeData` writes what `scheme/create` stores
 * (the shape `engine/scheme.ts` of the server reads); `schemeForm` reads a stored scheme back,
 * keeping names the data no longer has so that nothing is lost silently.
 */
import { SCHEME_AGGREGATIONS, SCHEME_DERIVED_OPS, SCHEME_PERIODS, type CorrelationTable, type SchemeAggregation, type SchemeDerivedOp, type SchemeTypeKind } from '@decisio/domain';

export type Dimension = '' | 'agent' | 'otherAgents' | 'environment';
export const DIMENSIONS: Exclude<Dimension, ''>[] = ['agent', 'otherAgents', 'environment'];

/** What the form holds for one field. */
export interface FieldChoice {
  dimension: Dimension;
  type: '' | SchemeTypeKind;
  /** Continuous: optional range; discrete: optional values (comma separated numbers). */
  min: string;
  max: string;
  values: string;
  aggregation: '' | SchemeAggregation;
}

/** A derived field `left op right` (field names), with its dimension. */
export interface DerivedField {
  name: string;
  left: string;
  op: SchemeDerivedOp;
  right: string;
  dimension: Dimension;
}

export interface SchemeForm {
  name: string;
  description: string;
  period: string;
  startTime: string;
  endTime: string;
  /** Field choices in the data's order, then names a stored scheme gives that the data lacks (`missing`). */
  fields: Array<{ name: string; missing: boolean; choice: FieldChoice }>;
  derived: DerivedField[];
  filter: string;
  partialOrder: string;
}

/** A stored scheme as the list gives it. */
export interface StoredScheme {
  name: string;
  description?: string | null;
  period?: string | null;
  startTime?: string | null;
  endTime?: string | null;
  data?: Record<string, unknown> | null;
}

/** The decision graph as far as the form reads it. */
export interface GraphNodes {
  nodes: Array<{ name: string; role?: string; fields?: Array<{ name: string }> }>;
}

export const emptyChoice = (): FieldChoice => ({ dimension: '', type: '', min: '', max: '', values: '', aggregation: '' });

const names = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x).trim()).filter(Boolean) : typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : []);
const unquote = (s: string) => s.trim().replace(/^`(.*)`$/, '$1');
const dateOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/** A type as stored (`continuous [0, 1]`, `discrete`, `{type, min, max, values}`) read into the form. */
function readType(spec: unknown, c: FieldChoice): void {
  if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
    const o = spec as Record<string, unknown>;
    const kind = String(o.type ?? o.kind ?? '').toLowerCase();
    if (kind === 'continuous' || kind === 'discrete') c.type = kind;
    if (o.min !== undefined) c.min = String(o.min);
    if (o.max !== undefined) c.max = String(o.max);
    if (Array.isArray(o.values)) c.values = o.values.join(', ');
    return;
  }
  const m = /^\s*(continuous|discrete)\s*(?:\[(.*)\])?\s*$/i.exec(String(spec ?? ''));
  if (!m) return;
  c.type = m[1]!.toLowerCase() as SchemeTypeKind;
  const nums = (m[2] ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (c.type === 'continuous' && nums.length === 2) [c.min, c.max] = nums as [string, string];
  if (c.type === 'discrete') c.values = nums.join(', ');
}

const FN_ALIASES: Record<string, SchemeAggregation> = { addition: 'sum', add: 'sum', multiplication: 'product', maximum: 'max', minimum: 'min', avg: 'average', mean: 'average' };

/**
 * The form of `scheme` (null: a new one) over `table`'s fields. A new scheme starts from the data:
 * its whole date range, the day period, and the graph's fields as dimensions (agent nodes' fields
 * as the agent, the other nodes' as the environment state).
 */
export function schemeForm(scheme: StoredScheme | null, table: CorrelationTable | null, graph: GraphNodes | null): SchemeForm {
  const d = (scheme?.data ?? {}) as Record<string, unknown>;
  const data = new Set((table?.fields ?? []).map((f) => f.name));
  const order: string[] = [...data];
  const choices = new Map<string, FieldChoice>(order.map((n) => [n, emptyChoice()]));
  const derived: DerivedField[] = [];
  if (scheme) {
    for (const [n, spec] of Object.entries((d.aggregation ?? {}) as Record<string, unknown>)) {
      const text = String(spec ?? '').trim();
      const m = /^(`[^`]+`|[^\s+\-*/&]+)\s*([+\-*/&])\s*(`[^`]+`|[^\s+\-*/&]+)$/.exec(text);
      if (m && !(SCHEME_AGGREGATIONS as readonly string[]).includes(text.toLowerCase())) derived.push({ name: n, left: unquote(m[1]!), op: m[2] as SchemeDerivedOp, right: unquote(m[3]!), dimension: '' });
    }
  }
  const derivedOf = (n: string) => derived.find((x) => x.name === n);
  const at = (name: string) => {
    if (!choices.has(name)) {
      choices.set(name, emptyChoice());
      order.push(name);
    }
    return choices.get(name)!;
  };
  if (scheme) {
    const dims = (d.dimensions ?? {}) as Record<string, unknown>;
    for (const dim of DIMENSIONS)
      for (const n of names(dim === 'environment' ? (dims.environment ?? dims.environmentState) : dims[dim])) {
        const dv = derivedOf(n);
        if (dv) dv.dimension = dim;
        else at(n).dimension = dim;
      }
    for (const [n, spec] of Object.entries((d.types ?? {}) as Record<string, unknown>)) readType(spec, at(n));
    for (const [n, spec] of Object.entries((d.aggregation ?? {}) as Record<string, unknown>)) {
      const text = String(spec ?? '').trim().toLowerCase();
      const fn = (SCHEME_AGGREGATIONS as readonly string[]).includes(text) ? (text as SchemeAggregation) : FN_ALIASES[text];
      if (fn) at(n).aggregation = fn;
    }
  } else if (graph) {
    for (const node of graph.nodes) {
      if (node.role === 'tunable') continue;
      for (const f of node.fields ?? []) if (data.has(f.name)) at(f.name).dimension = node.role === 'agent' ? 'agent' : 'environment';
    }
  }
  const range = table?.dateRange;
  return {
    name: scheme?.name ?? '',
    description: scheme?.description ?? '',
    period: scheme ? (scheme.period ?? '') : 'day',
    startTime: scheme ? dateOf(scheme.startTime) : dateOf(range?.min),
    endTime: scheme ? dateOf(scheme.endTime) : dateOf(range?.max),
    fields: order.map((name) => ({ name, missing: !data.has(name), choice: choices.get(name)! })),
    derived,
    filter: Array.isArray(d.filter) ? d.filter.map(String).join(' and ') : typeof d.filter === 'string' ? d.filter : '',
    partialOrder: Array.isArray(d.partialOrder) ? d.partialOrder.map(String).join('\n') : typeof d.partialOrder === 'string' ? d.partialOrder : '',
  };
}

/** An operand as the processing reads it (names with spaces or operators in backticks). */
const operand = (name: string) => (/^[^\s+\-*/&`]+$/.test(name) ? name : `\`${name}\``);

/** The `data` that `scheme/create` stores (see the module comment). */
export function schemeData(f: SchemeForm): Record<string, unknown> {
  const dims: Record<Exclude<Dimension, ''>, string[]> = { agent: [], otherAgents: [], environment: [] };
  const types: Record<string, { type: SchemeTypeKind; min?: number; max?: number; values?: number[] }> = {};
  const aggregation: Record<string, string> = {};
  for (const { name, choice: c } of f.fields) {
    if (c.dimension) dims[c.dimension].push(name);
    if (c.type) {
      const t: (typeof types)[string] = { type: c.type };
      if (c.type === 'continuous' && c.min.trim() !== '' && c.max.trim() !== '') {
        t.min = Number(c.min);
        t.max = Number(c.max);
      }
      if (c.type === 'discrete' && c.values.trim() !== '') t.values = numbers(c.values);
      types[name] = t;
    }
    if (c.aggregation) aggregation[name] = c.aggregation;
  }
  // Derived fields are computed first (the processing's order), then may be dimensions.
  for (const d of f.derived) {
    aggregation[d.name.trim()] = `${operand(d.left)} ${d.op} ${operand(d.right)}`;
    if (d.dimension) dims[d.dimension].push(d.name.trim());
  }
  return {
    dimensions: dims,
    types,
    aggregation,
    filter: f.filter.trim(),
    partialOrder: f.partialOrder.split('\n').map((x) => x.trim()).filter(Boolean),
  };
}

const numbers = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number);
const okDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));

/** Error keys of the scheme bundle (`errors.*` of the trainings kit, `scheme.errors.*` of this plugin) by form place. */
export type SchemeFormErrors = Record<string, string>;

/**
 * The form's checks (spec workflow §5 "Scheme" and what the processing refuses): name, period,
 * valid dates with the start before the end; a continuous range of two numbers, min below max;
 * discrete values numbers; a derived field named (not a field of the data, not twice) from two
 * fields. Places: `name`, `period`, `startTime`,
 * `endTime`, `field.<name>`, `derived.<i>`.
 */
export function validateSchemeForm(f: SchemeForm): SchemeFormErrors {
  const e: SchemeFormErrors = {};
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > 50) e.name = 'errors.nameTooLong';
  if (!(SCHEME_PERIODS as readonly string[]).includes(f.period)) e.period = 'errors.required';
  if (!okDate(f.startTime)) e.startTime = 'errors.required';
  if (!okDate(f.endTime)) e.endTime = 'errors.required';
  if (!e.startTime && !e.endTime && f.startTime >= f.endTime) e.endTime = 'scheme.timeOrder';
  for (const { name, choice: c } of f.fields) {
    if (c.type === 'continuous' && (c.min.trim() !== '' || c.max.trim() !== '')) {
      const [lo, hi] = [Number(c.min), Number(c.max)];
      if (c.min.trim() === '' || c.max.trim() === '' || !Number.isFinite(lo) || !Number.isFinite(hi) || !(lo < hi)) e[`field.${name}`] = 'scheme.errors.range';
    }
    if (c.type === 'discrete' && c.values.trim() !== '' && numbers(c.values).some((x) => !Number.isFinite(x))) e[`field.${name}`] = 'scheme.errors.values';
  }
  const taken = new Set(f.fields.filter((x) => !x.missing).map((x) => x.name));
  const seen = new Set<string>();
  f.derived.forEach((d, i) => {
    const n = d.name.trim();
    if (!n || !d.left || !d.right || !(SCHEME_DERIVED_OPS as readonly string[]).includes(d.op)) e[`derived.${i}`] = 'scheme.errors.derivedIncomplete';
    else if (taken.has(n) || seen.has(n)) e[`derived.${i}`] = 'scheme.errors.derivedTaken';
    seen.add(n);
  });
  return e;
}

/** Whether the chosen business range holds none of the data's time range. */
export function rangeMissesData(f: Pick<SchemeForm, 'startTime' | 'endTime'>, table: CorrelationTable | null): boolean {
  const r = table?.dateRange;
  if (!r || !okDate(f.startTime) || !okDate(f.endTime)) return false;
  const start = Date.parse(`${f.startTime}T00:00:00Z`);
  const end = Date.parse(`${f.endTime}T00:00:00Z`) + 86_400_000; // a date-only end includes its day
  return end <= Date.parse(r.min) || start > Date.parse(r.max);
}
