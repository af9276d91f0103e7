import { describe, expect, it } from 'vitest';
import { emptyDraft, fromCorrelation, toCorrelation, validateCorrelation, type CorrelationDraft } from './correlation';

const columns = new Map<string, string[]>([
  ['orders', ['order_id', 'traj', 'step', 'ts', 'customer_id']],
  ['customers', ['id', 'region']],
  ['items', ['order_id', 'sku']],
  ['empty', []],
]);

const good: CorrelationDraft = {
  tables: ['orders', 'customers', 'items'],
  trajectoryField: 'traj',
  sequenceField: 'step',
  datetimeField: 'ts',
  relations: [
    { from: 'orders', fromField: 'customer_id', to: 'customers', toField: 'id' },
    { from: 'items', fromField: 'order_id', to: 'orders', toField: 'order_id' },
  ],
};

describe('validateCorrelation', () => {
  it('accepts a primary table with its fields and every table connected', () => {
    expect(validateCorrelation(good, columns)).toEqual({});
  });

  it('requires the primary table, the trajectory and sequence fields; the datetime field is optional', () => {
    expect(validateCorrelation(emptyDraft(), columns)).toEqual({
      primary: 'primaryRequired',
      trajectoryField: 'fieldRequired',
      sequenceField: 'fieldRequired',
    });
    expect(validateCorrelation({ ...good, datetimeField: '' }, columns)).toEqual({});
    expect(toCorrelation({ ...good, datetimeField: '' })).not.toHaveProperty('datetimeField');
  });

  it('refuses fields that are not columns of the primary table', () => {
    const e = validateCorrelation({ ...good, sequenceField: 'region' }, columns);
    expect(e).toEqual({ sequenceField: 'fieldMismatch' });
  });

  it('refuses a table that no relation connects, an empty slot and a table without structure', () => {
    const e = validateCorrelation({ ...good, tables: ['orders', 'customers', 'items', '', 'empty'], relations: [good.relations[0]!] }, columns);
    expect(e).toEqual({ 'table.2': 'notConnected', 'table.3': 'datasetRequired', 'table.4': 'noStructure' });
  });

  it('checks the keys of each relation', () => {
    const e = validateCorrelation(
      {
        ...good,
        relations: [
          { from: 'orders', fromField: 'nope', to: 'customers', toField: 'id' },
          { from: 'items', fromField: 'order_id', to: 'items', toField: 'order_id' },
          { from: 'items', fromField: '', to: 'orders', toField: 'order_id' },
        ],
      },
      columns,
    );
    expect(e).toEqual({
      'relation.0.fromField': 'fieldMismatch',
      'relation.1': 'relationSameTable',
      'relation.2': 'relationIncomplete',
      'table.1': 'notConnected',
      'table.2': 'notConnected',
    });
  });

  it('round-trips through the saved payload', () => {
    const saved = toCorrelation(good);
    expect(saved).toMatchObject({ primaryTableId: 'orders', datasetId: 'orders', trajectoryField: 'traj' });
    expect(fromCorrelation(saved)).toEqual({ ...good, tables: ['orders', 'customers', 'items'] });
    expect(fromCorrelation(null)).toEqual(emptyDraft());
  });
});
