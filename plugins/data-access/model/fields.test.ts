import { describe, expect, it } from 'vitest';
import { draftOf, toFieldSettings, validateFields, type FieldDraft } from './fields';

const row = (over: Partial<FieldDraft> = {}): FieldDraft => ({
  name: 'speed',
  selected: true,
  kind: 'float',
  dataType: 'continuous',
  min: '0',
  max: '10',
  discreteNumber: '',
  values: '',
  hidden: false,
  ...over,
});

describe('field settings', () => {
  it('requires a selected field and valid numbers', () => {
    expect(validateFields([row({ selected: false })])).toEqual({ form: 'select' });
    expect(validateFields([row({ min: 'a' })])).toEqual({ 0: 'number' });
    expect(validateFields([row({ min: '5', max: '5' })])).toEqual({ 0: 'range' });
    expect(validateFields([row({ dataType: 'discrete', discreteNumber: '2.5' })])).toEqual({ 0: 'discrete' });
    expect(validateFields([row({ dataType: 'category', values: ' , ' })])).toEqual({ 0: 'values' });
    expect(validateFields([row({ dataType: 'category', values: '' })])).toEqual({});
    expect(validateFields([row({ dataType: 'category', values: '1, x' })])).toEqual({ 0: 'values' });
    expect(validateFields([row(), row({ dataType: 'category', values: '1, 2' })])).toEqual({});
  });

  it('sends only the selected fields with numbers', () => {
    const fields = toFieldSettings([row(), row({ name: 'gear', dataType: 'category', values: '1, 2,3', min: '', max: '' }), row({ name: 'x', selected: false }), row({ name: 'label', kind: 'string', dataType: 'category', min: '', max: '' })]);
    expect(fields).toEqual([
      { name: 'speed', kind: 'float', dataType: 'continuous', min: 0, max: 10, discreteNumber: null, values: null, hidden: false },
      { name: 'gear', kind: 'float', dataType: 'category', min: null, max: null, discreteNumber: null, values: [1, 2, 3], hidden: false },
      { name: 'label', kind: 'string', dataType: 'category', min: null, max: null, discreteNumber: null, values: null, hidden: false },
    ]);
    expect(draftOf({ name: 'a', type: 'BIGINT', kind: 'int', dataType: 'discrete', min: 1, max: 4, discreteNumber: 4, values: null, hidden: true })).toMatchObject({ min: '1', discreteNumber: '4', hidden: true });
  });
});
