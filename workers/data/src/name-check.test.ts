import { uploadFileNameSchema, uploadFileType } from '@decisio/domain';
import { describe, expect, it } from 'vitest';
import { checkFileMeta } from './name-check';

const reasons = (name: string, size = 10) => checkFileMeta(name, size).map((i) => i.reason);

describe('checkFileMeta', () => {
  it('accepts Chinese and English letters, digits, hyphen, underscore, parentheses and spaces', () => {
    expect(reasons('销售数据_2024-01 (final).csv')).toEqual([]);
    expect(reasons('数据（二）.npz')).toEqual([]);
  });
  it('rejects other characters and lists them', () => {
    const issues = checkFileMeta('sales#1@home.csv', 10);
    expect(issues[0]).toMatchObject({ code: 'tableParamError', reason: 'nameChars', details: { characters: ['#', '@'] } });
    expect(reasons('a.b.csv')).toEqual(['nameChars']);
  });
  it('rejects names over 50 characters, counting the extension', () => {
    expect(reasons(`${'a'.repeat(46)}.csv`)).toEqual([]);
    expect(reasons(`${'a'.repeat(47)}.csv`)).toEqual(['nameTooLong']);
    expect(reasons(`${'数'.repeat(47)}.csv`)).toEqual(['nameTooLong']);
  });
  it('rejects files over 2 GB and empty files', () => {
    expect(reasons('a.csv', 2 * 1024 ** 3)).toEqual([]);
    expect(checkFileMeta('a.csv', 2 * 1024 ** 3 + 1)[0]).toMatchObject({ code: 'tableParamError', reason: 'tooLarge' });
    expect(checkFileMeta('a.csv', 0)[0]).toMatchObject({ code: 'datasetEmpty', value: 5009 });
  });
});

describe('domain upload schemas', () => {
  it('validate the name and type', () => {
    expect(uploadFileNameSchema.safeParse('数据 (1).h5').success).toBe(true);
    expect(uploadFileNameSchema.safeParse('data.xlsx').success).toBe(false);
    expect(uploadFileNameSchema.safeParse('da$ta.csv').success).toBe(false);
    expect(uploadFileType('X.CSV')).toBe('csv');
    expect(uploadFileType('x.parquet')).toBeNull();
  });
});
