import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@decisio/domain';
import { joinTables, prefixOf, type JoinTable } from './join';

/** Orders (primary): one row per order, store and product keys, a `name` that clashes. */
const orders = (): JoinTable => ({
  id: 'orders',
  name: 'orders',
  columns: {
    order: ['o1', 'o2', 'o3', 'o4', 'o5'],
    store: ['s1', 's2', 's1', 's9', ''],
    qty: new Float64Array([1, 2, 3, 4, 5]),
    name: ['a', 'b', 'c', 'd', 'e'],
  },
});

/** Stores: a lookup table keyed by `id`, with a clashing `name`, a region key and a number column. */
const stores = (): JoinTable => ({
  id: 'stores',
  name: 'Store list',
  columns: {
    id: ['s2', 's1', 's3'],
    name: ['North', 'South', 'East'],
    region: new Float64Array([20, 10, 30]),
    size: new Float64Array([200, 100, 300]),
  },
});

/** Regions: keyed by a number code, read as text (as a CSV file is). */
const regions = (): JoinTable => ({
  id: 'regions',
  name: 'regions',
  columns: { code: ['10', '20'], manager: ['Ann', 'Bob'], name: ['south-r', 'north-r'] },
});

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : -1;
  }
  return undefined;
}

describe('joinTables', () => {
  it('left-joins a lookup table in primary order: matches, unmatched keys, clashes, key column left out', () => {
    const { table, report } = joinTables(orders(), [stores()], [{ from: 'orders', fromField: 'store', to: 'stores', toField: 'id' }]);
    expect(Object.keys(table)).toEqual(['order', 'store', 'qty', 'name', 'Store_list_name', 'region', 'size']);
    expect(table.order).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(table.name).toEqual(['a', 'b', 'c', 'd', 'e']);
    // s9 has no store, '' is a missing key: text gets '', numbers NaN.
    expect(table.Store_list_name).toEqual(['South', 'North', 'South', '', '']);
    expect(Array.from(table.size as Float64Array)).toEqual([100, 200, 100, NaN, NaN]);
    expect(table.size).toBeInstanceOf(Float64Array);
    expect(report.steps).toEqual([{ id: 'stores', name: 'Store list', rows: 3, matched: 3, on: ['orders.store = Store list.id'], renamed: { name: 'Store_list_name' }, added: ['Store_list_name', 'region', 'size'] }]);
  });

  it('takes a relation in either direction and chains joins (orders -> stores -> regions)', () => {
    const rels = [
      { from: 'stores', fromField: 'id', to: 'orders', toField: 'store' }, // reversed
      { from: 'regions', fromField: 'code', to: 'stores', toField: 'region' }, // reversed, from the middle table
    ];
    // Regions listed first: the order of the tables does not matter, the walk starts at the primary.
    const { table, report } = joinTables(orders(), [regions(), stores()], rels);
    expect(report.steps.map((s) => s.id)).toEqual(['stores', 'regions']);
    expect(Object.keys(table)).toEqual(['order', 'store', 'qty', 'name', 'Store_list_name', 'region', 'size', 'manager', 'regions_name']);
    // The region keys are numbers, the codes text: compared as numbers. o4 (no store) has no region either.
    expect(table.manager).toEqual(['Ann', 'Bob', 'Ann', '', '']);
    expect(table.regions_name).toEqual(['south-r', 'north-r', 'south-r', '', '']);
    expect(report.steps[1]!.on).toEqual(['Store list.region = regions.code']);
  });

  it('reads a chained key from the middle table even when its key column was left out', () => {
    // stores.id is the key of the first join (left out); regions relate to it by store id.
    const perStore: JoinTable = { id: 'perStore', name: 'perStore', columns: { store: ['s1', 's2'], open: new Float64Array([1, 0]) } };
    const { table } = joinTables(orders(), [stores(), perStore], [
      { from: 'orders', fromField: 'store', to: 'stores', toField: 'id' },
      { from: 'stores', fromField: 'id', to: 'perStore', toField: 'store' },
    ]);
    expect(Array.from(table.open as Float64Array)).toEqual([1, 0, 1, NaN, NaN]);
    expect('perStore_store' in table || 'store_2' in table).toBe(false);
  });

  it('joins many-to-one and refuses one-to-many with the table and key', () => {
    const dup: JoinTable = { id: 'dup', name: 'dup', columns: { id: ['s1', 's2', 's1', 's7', 's7'], v: new Float64Array([1, 2, 3, 4, 5]) } };
    const rel = [{ from: 'orders', fromField: 'store', to: 'dup', toField: 'id' }];
    let err: unknown;
    try {
      joinTables(orders(), [dup], rel);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.tableParamError);
    expect((err as AppError).message).toContain('table "dup" has 2 rows with key id = s1');
    // Repeated keys no row looks up (s7) are fine; every order of s2 gets the one s2 row.
    const clean: JoinTable = { id: 'dup', name: 'dup', columns: { id: ['s2', 's7', 's7'], v: new Float64Array([2, 4, 5]) } };
    const many: JoinTable = { ...orders(), columns: { ...orders().columns, store: ['s2', 's2', 's2', 's1', 's2'] } };
    expect(Array.from(joinTables(many, [clean], rel).table.v as Float64Array)).toEqual([2, 2, 2, NaN, 2]);
  });

  it('compares numbers as numbers and text exactly', () => {
    const primary: JoinTable = { id: 'p', name: 'p', columns: { k: new Float64Array([7, 8, NaN, 9]), t: ['A', 'a', 'b ', 'b'] } };
    const byNumber: JoinTable = { id: 'n', name: 'n', columns: { k: [' 7.0', 'x', '8', ''], v: ['seven', 'x', 'eight', 'missing'] } };
    expect(joinTables(primary, [byNumber], [{ from: 'p', fromField: 'k', to: 'n', toField: 'k' }]).table.v).toEqual(['seven', 'eight', '', '']);
    const byText: JoinTable = { id: 'x', name: 'x', columns: { t: ['a', 'b'], w: [1, 2] } };
    const out = joinTables(primary, [byText], [{ from: 'p', fromField: 't', to: 'x', toField: 't' }]).table;
    expect(out.w).toEqual([NaN, 1, NaN, 2]);
  });

  it('uses every relation to tables already joined as one composite key', () => {
    const primary: JoinTable = { id: 'p', name: 'p', columns: { store: ['s1', 's1', 's2'], day: [1, 2, 1] } };
    const daily: JoinTable = { id: 'd', name: 'd', columns: { s: ['s1', 's1', 's2', 's2'], d: [1, 2, 2, 1], sales: [10, 20, 40, 30] } };
    const { table, report } = joinTables(primary, [daily], [
      { from: 'p', fromField: 'store', to: 'd', toField: 's' },
      { from: 'd', fromField: 'd', to: 'p', toField: 'day' },
    ]);
    expect(table.sales).toEqual([10, 20, 30]);
    expect(Object.keys(table)).toEqual(['store', 'day', 'sales']);
    expect(report.steps[0]!.on).toEqual(['p.store = d.s', 'p.day = d.d']);
  });

  it('accepts the primary table under another id (its dataset id)', () => {
    const { table } = joinTables(orders(), [stores()], [{ from: 'file-1', fromField: 'store', to: 'stores', toField: 'id' }], ['file-1']);
    expect(table.size).toBeDefined();
  });

  it('names a renamed column apart from the table own columns and earlier renames', () => {
    const primary: JoinTable = { id: 'p', name: 'p', columns: { k: ['1'], x: ['p'], t_x: ['p2'] } };
    const t: JoinTable = { id: 't', name: 't', columns: { k: ['1'], x: ['t'] } };
    const { table, report } = joinTables(primary, [t], [{ from: 'p', fromField: 'k', to: 't', toField: 'k' }]);
    expect(report.steps[0]!.renamed).toEqual({ x: 't_x_2' });
    expect(table.t_x_2).toEqual(['t']);
    expect(prefixOf('Store list (2026)')).toBe('Store_list_2026_');
    expect(prefixOf('门店 表')).toBe('门店_表');
  });

  it('fails with a catalogue code on a missing table or key column, a self relation and an unconnected table', () => {
    const rel = { from: 'orders', fromField: 'store', to: 'stores', toField: 'id' };
    expect(codeOf(() => joinTables(orders(), [], [rel]))).toBe(ErrorCode.tableNotFound);
    expect(codeOf(() => joinTables(orders(), [stores()], [{ ...rel, toField: 'nope' }]))).toBe(ErrorCode.tableFieldsMismatch);
    expect(() => joinTables(orders(), [stores()], [{ ...rel, fromField: 'nope' }])).toThrow(/table "orders" has no key column "nope"/);
    expect(codeOf(() => joinTables(orders(), [stores()], [{ ...rel, to: 'orders' }]))).toBe(ErrorCode.tableParamError);
    expect(codeOf(() => joinTables(orders(), [stores()], [{ ...rel, toField: '' }]))).toBe(ErrorCode.tableParamError);
    // regions relate to stores only, stores to nothing reaching the primary.
    const loose = () => joinTables(orders(), [stores(), regions()], [{ from: 'regions', fromField: 'code', to: 'stores', toField: 'region' }]);
    expect(codeOf(loose)).toBe(ErrorCode.tableParamError);
    expect(loose).toThrow(/table "regions" is not connected to the primary table "orders"|table "Store list" is not connected/);
  });

  it('joins a million rows to a million rows in linear time', () => {
    // No wall-time bound (it would measure the machine): a join that looked the key up by
    // scanning the related table would need ~5e11 comparisons here and never end within the
    // test timeout, whatever the load; a hashed lookup takes about a second.
    const n = 1_000_000;
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) key[i] = (i * 7919) % n; // a permutation of 0..n-1
    const dim: JoinTable = { id: 'd', name: 'd', columns: { k: Float64Array.from({ length: n }, (_, i) => n - 1 - i), v: Float64Array.from({ length: n }, (_, i) => (n - 1 - i) * 2) } };
    const { table } = joinTables({ id: 'p', name: 'p', columns: { key } }, [dim], [{ from: 'p', fromField: 'key', to: 'd', toField: 'k' }]);
    const v = table.v as Float64Array;
    expect(v.length).toBe(n);
    for (const i of [0, 1, 123_456, 500_000, n - 1]) expect(v[i]).toBe(key[i]! * 2);
  });
});
