import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cellDisplay, cellText, valueKindOf } from './format';

describe('cellDisplay', () => {
  const tz = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Asia/Shanghai';
  });
  afterEach(() => {
    process.env.TZ = tz;
  });

  it('shows a date as its day, not as a UTC timestamp', () => {
    expect(cellDisplay('2024-01-01T00:00:00.000Z', 'DATE')).toEqual({ text: '2024-01-01' });
    expect(cellText('2024-01-01T00:00:00.000Z', 'date')).toBe('2024-01-01');
    // The type unknown: a midnight UTC value is a date.
    expect(cellText('2024-01-01T00:00:00.000Z')).toBe('2024-01-01');
  });

  it('shows a timestamp in local time, the full value in the title', () => {
    expect(cellDisplay('2024-01-01T00:30:00.000Z', 'TIMESTAMP WITH TIME ZONE')).toEqual({ text: '2024-01-01 08:30:00', title: '2024-01-01T00:30:00.000Z' });
    expect(cellDisplay('2024-01-01T00:00:00.000Z', 'TIMESTAMP')).toEqual({ text: '2024-01-01 08:00:00', title: '2024-01-01T00:00:00.000Z' });
    expect(cellDisplay('2024-03-05T10:11:12.345Z')).toEqual({ text: '2024-03-05 18:11:12.345', title: '2024-03-05T10:11:12.345Z' });
  });

  it('leaves other values as they were', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(1.23456789)).toBe('1.23457');
    expect(cellText(42)).toBe('42');
    expect(cellText(true)).toBe('true');
    expect(cellText('2024-01-01')).toBe('2024-01-01');
    expect(cellText('Tuesday 2024-01-01T00:00:00.000Z')).toBe('Tuesday 2024-01-01T00:00:00.000Z');
  });
});

describe('valueKindOf', () => {
  it("names the worker's kinds and DuckDB's types in plain words", () => {
    expect(['integer', 'float', 'boolean', 'date', 'timestamp', 'string', 'empty'].map(valueKindOf)).toEqual(['integer', 'decimal', 'boolean', 'date', 'datetime', 'text', 'empty']);
    expect(['BIGINT', 'DOUBLE', 'DECIMAL(18,3)', 'VARCHAR', 'DATE', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMP_NS', 'TIME', 'BOOLEAN'].map(valueKindOf)).toEqual([
      'integer',
      'decimal',
      'decimal',
      'text',
      'date',
      'datetime',
      'datetime',
      'time',
      'boolean',
    ]);
    expect(valueKindOf('STRUCT(a INTEGER)')).toBeNull();
  });
});
