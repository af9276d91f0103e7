/**
 * The storehouse's recognizer: how well a column of a user's table fits a field of a template,
 * and the mapping it proposes. Pure functions (no I/O), so the rules are tested on their own.
 *
 * A field's score (0..1) is `0.55 name + 0.15 type + 0.30 range`, and 0 when the value types
 * cannot fit (text for a number, a number for a datetime):
 * - name: column names split into words (snake, kebab, camel case, spaces; Chinese phrases by a
 *   dictionary), each word mapped to its synonym group (`temp`/`temperature`/`温度`,
 *   `stock`/`inventory`/`库存`, ...); the Dice coefficient of the two word sets, or 0.8 × the
 *   Dice coefficient of their character bigrams when that is higher (fuzzy spelling); halved when
 *   only one of the two is a `next_` field (the state after the step is not the state before it);
 * - type: 1 for the same type, less for a near one (an integer column for a real field);
 * - range: for numeric fields the overlap of the two value ranges over their union, and, for a
 *   field with few distinct values (a door state 0/1, four price levels), how close the counts
 *   of distinct values are; the key columns (trajectory, sequence, datetime) score 1 when their
 *   type fits.
 * The mapping takes the best pairs first (greedy on the score, each column used once) and
 * proposes nothing under {@link STOREHOUSE_LIMITS.matchThreshold}. The template's score is the
 * mean of its required fields' scores × 100, a field without a column counting 0 (optional
 * fields, the `next_` columns, are proposed when a column fits but do not count).
 */
import { STOREHOUSE_LIMITS, type FieldMatch, type FieldMatchScore, type RecognizedColumn, type StorehouseField, type StorehouseValueType } from '@decisio/domain';

/** Synonym groups: the first word is the group's name. */
const SYNONYMS: readonly (readonly string[])[] = [
  ['temp', 'temperature', 'tmp', 'temperatures', '温度', '气温'],
  ['power', 'energy', 'cooling', 'kw', 'watt', 'watts', 'load', '功率', '制冷', '能耗', '电量'],
  ['door', 'gate', 'doors', '门', '库门'],
  ['state', 'status', 'open', 'opened', 'flag', 'is', '状态', '开关', '开门'],
  ['room', 'rooms', 'chamber', 'coldroom', 'unit', 'site', 'warehouse', '冷库', '房间', '库房'],
  ['traj', 'trajectory', 'episode', 'series', 'group', 'id', '轨迹', '编号'],
  ['step', 'steps', 't', 'idx', 'index', 'seq', 'sequence', 'period', 'tick', '步', '序号', '期', '期数'],
  ['time', 'datetime', 'timestamp', 'date', 'ts', 'day', 'dt', '时间', '日期', '时刻'],
  ['store', 'shop', 'outlet', 'branch', 'stores', '门店', '店铺', '商店'],
  ['stock', 'inventory', 'onhand', 'stocks', '库存', '存货'],
  ['season', 'seasonal', 'seasonality', '季节', '季节性'],
  ['price', 'prices', 'coupon', 'discount', 'tariff', '价格', '售价', '优惠', '优惠券'],
  ['order', 'orders', 'purchase', 'replenish', 'replenishment', 'reorder', 'restock', '补货', '订货', '进货'],
  ['quantity', 'qty', 'amount', 'volume', 'units', 'count', 'num', '数量', '量'],
  ['sold', 'sales', 'sale', 'sell', 'demand', '销量', '销售', '需求'],
  ['next', 'nxt', 'following', 'new', '下一', '下期', '下一时刻', '下个'],
  ['action', 'act', 'control', 'decision', '动作', '控制', '决策'],
];
/** Words that say nothing about a column. */
const STOPWORDS = new Set(['obs', 'factor', 'value', 'val', 'col', 'field', 'the', 'of', 'level']);

const GROUP = new Map<string, string>();
for (const group of SYNONYMS) for (const w of group) GROUP.set(w, group[0]!);
/** Chinese words of the dictionary, longest first (a Chinese name is scanned for them). */
const CHINESE = [...GROUP.keys()].filter((w) => /[\u4e00-\u9fff]/.test(w)).sort((a, b) => b.length - a.length);

/** The words of a column name, each mapped to its synonym group. */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let rest = name;
  for (const w of CHINESE) {
    if (rest.includes(w)) {
      words.push(GROUP.get(w)!);
      rest = rest.split(w).join(' ');
    }
  }
  const latin = rest
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOPWORDS.has(w));
  for (const w of latin) words.push(GROUP.get(w) ?? GROUP.get(w.replace(/s$/, '')) ?? w);
  return words;
}

function dice<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const rest = [...b];
  let common = 0;
  for (const x of a) {
    const i = rest.indexOf(x);
    if (i >= 0) {
      common++;
      rest.splice(i, 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

function bigrams(s: string): string[] {
  const t = s.toLowerCase().replace(/[^a-z0-9\u4e00-\u9fff]/g, '');
  const out: string[] = [];
  for (let i = 0; i + 1 < t.length; i++) out.push(t.slice(i, i + 2));
  return out;
}

/** How alike two column names are (0..1). */
export function nameScore(field: string, column: string): number {
  const a = nameWords(field);
  const b = nameWords(column);
  const words = dice([...new Set(a)], [...new Set(b)]);
  const fuzzy = 0.8 * dice(bigrams(field), bigrams(column));
  const score = Math.max(words, fuzzy);
  const nextA = a.includes('next');
  const nextB = b.includes('next');
  return nextA === nextB ? score : score / 2;
}

/** How well a column's value type fits a field's (0: it cannot). */
export function typeScore(field: StorehouseField, column: RecognizedColumn): number {
  const c = column.valueType;
  switch (field.role) {
    case 'trajectory':
      return c === 'integer' || c === 'text' ? 1 : 0;
    case 'sequence':
      return c === 'integer' ? 1 : 0;
    case 'datetime':
      return c === 'datetime' ? 1 : 0;
    default:
      return fieldTypeScore(field.valueType, c);
  }
}

function fieldTypeScore(want: StorehouseValueType, have: StorehouseValueType): number {
  if (want === have) return 1;
  if (want === 'number' && have === 'integer') return 0.8;
  if (want === 'integer' && have === 'number') return 0.6;
  return 0;
}

/** How well a column's values fit a field's (0..1). */
export function rangeScore(field: StorehouseField, column: RecognizedColumn): number {
  if (field.role !== 'field') return 1;
  if (field.min === null || field.max === null || column.min === null || column.max === null) return 0.5;
  const lo = Math.max(field.min, column.min);
  const hi = Math.min(field.max, column.max);
  const span = Math.max(field.max, column.max) - Math.min(field.min, column.min);
  const overlap = span > 0 ? Math.max(0, hi - lo) / span : field.min === column.min ? 1 : 0;
  if (field.distinct > 10) return overlap;
  // Few distinct values (a state, price levels): the column should have about as few.
  const counts = column.distinct <= 2 * field.distinct ? 1 : (2 * field.distinct) / column.distinct;
  return 0.7 * overlap + 0.3 * counts;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The score of a column for a field (total 0 when the types cannot fit). */
export function fieldScore(field: StorehouseField, column: RecognizedColumn): FieldMatchScore {
  const type = typeScore(field, column);
  const name = nameScore(field.name, column.name);
  const range = type > 0 ? rangeScore(field, column) : 0;
  const total = type > 0 ? 0.55 * name + 0.15 * type + 0.3 * range : 0;
  return { name: round(name), type: round(type), range: round(range), total: round(total) };
}

/**
 * The proposed mapping of a table's columns onto a template's fields: best pairs first, each
 * column used once, none under the threshold. Returns the mapping (in the fields' order), the
 * template's score (0..100) and the fields left without a column.
 */
export function matchTemplate(fields: readonly StorehouseField[], columns: readonly RecognizedColumn[]): { mapping: FieldMatch[]; score: number; missing: string[] } {
  const pairs: { f: number; c: number; score: FieldMatchScore }[] = [];
  fields.forEach((field, f) =>
    columns.forEach((column, c) => {
      const score = fieldScore(field, column);
      if (score.total >= STOREHOUSE_LIMITS.matchThreshold) pairs.push({ f, c, score });
    }),
  );
  // Best first; ties: the field listed first, then the column listed first (stable, deterministic).
  pairs.sort((a, b) => b.score.total - a.score.total || a.f - b.f || a.c - b.c);
  const byField = new Map<number, { c: number; score: FieldMatchScore }>();
  const usedColumns = new Set<number>();
  for (const p of pairs) {
    if (byField.has(p.f) || usedColumns.has(p.c)) continue;
    byField.set(p.f, { c: p.c, score: p.score });
    usedColumns.add(p.c);
  }
  const mapping: FieldMatch[] = fields.map((field, f) => {
    const hit = byField.get(f);
    return { field: field.name, role: field.role, required: field.required, column: hit ? columns[hit.c]!.name : null, score: hit ? hit.score : null };
  });
  const required = mapping.filter((m) => m.required);
  const total = required.reduce((s, m) => s + (m.score?.total ?? 0), 0);
  const score = required.length ? Math.round((1000 * total) / required.length) / 10 : 0;
  return { mapping, score, missing: required.filter((m) => !m.column).map((m) => m.field) };
}
