import { describe, expect, it } from 'vitest';
import { detectDelimiter, duplicateColumns, lastRecordEnd, parseCsvRecords, sniffCsv } from './csv-sniff';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const sniff = (s: string | Uint8Array, final = true) => sniffCsv(typeof s === 'string' ? enc(s) : s, { final, rows: 100 });
const reasons = (s: ReturnType<typeof sniff>) => s.issues.map((i) => i.reason);

describe('parseCsvRecords', () => {
  it('reads quoted fields with commas, quotes and newlines', () => {
    const r = parseCsvRecords('a,b\n"x, y","he said ""hi""\nthen left"\n', ',');
    expect(r.records).toEqual([['a', 'b'], ['x, y', 'he said "hi"\nthen left']]);
    expect(r.lines).toEqual([1, 2]);
  });
  it('handles CRLF, CR and blank or trailing empty lines', () => {
    expect(parseCsvRecords('a,b\r\n1,2\r\n\r\n3,4\r\n\r\n', ',').records).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
    expect(parseCsvRecords('a,b\r1,2\r', ',').records).toEqual([['a', 'b'], ['1', '2']]);
  });
  it('drops the cut last record of a non-final sample', () => {
    const r = parseCsvRecords('a,b\n1,2\n3,"4', ',', { final: false });
    expect(r.records).toEqual([['a', 'b'], ['1', '2']]);
    expect(r.truncated).toBe(true);
  });
  it('keeps empty fields', () => {
    expect(parseCsvRecords('a,b,c\n,,\n1,,3', ',').records).toEqual([['a', 'b', 'c'], ['', '', ''], ['1', '', '3']]);
  });
});

describe('detectDelimiter', () => {
  it.each([
    [',', 'a,b,c\n1,2,3\n4,5,6\n'],
    [';', 'a;b;c\n1,5;2;3\n4;5;6\n'],
    ['\t', 'a\tb\tc\n1\t2\t3\n'],
    ['|', 'a|b|c\n1|2|3\n'],
  ])('finds %j', (d, text) => {
    expect(detectDelimiter(text).delimiter).toBe(d);
  });
  it('is not fooled by semicolons inside quoted comma fields', () => {
    expect(detectDelimiter('name,note\n"x","a;b;c;d"\n"y","e;f;g;h"\n').delimiter).toBe(',');
  });
  it('gives the comma for a single column', () => {
    expect(detectDelimiter('value\n1\n2\n').delimiter).toBe(',');
  });
});

describe('duplicateColumns', () => {
  it('lists repeated names once, after trimming', () => {
    expect(duplicateColumns(['a', 'b', ' a', 'c', 'b', 'a'])).toEqual(['a', 'b']);
    expect(duplicateColumns(['温度', '压力', '温度'])).toEqual(['温度']);
    expect(duplicateColumns(['x', 'y'])).toEqual([]);
    expect(duplicateColumns(['Price', 'price'])).toEqual(['price']);
  });
});

describe('sniffCsv', () => {
  it('previews a clean comma file with BOM, Chinese headers and CRLF', () => {
    const s = sniff('\uFEFF时间,温度,城市,ok\r\n2024-01-01,21.5,"北京, 朝阳",true\r\n2024-01-02,NaN,上海,false\r\n2024-01-03,,深圳,true\r\n\r\n');
    expect(s.issues).toEqual([]);
    expect(s.hasBom).toBe(true);
    expect(s.lineEnding).toBe('crlf');
    expect(s.header).toEqual(['时间', '温度', '城市', 'ok']);
    expect(s.columns.map((c) => c.kind)).toEqual(['date', 'float', 'string', 'boolean']);
    expect(s.columns[1]).toMatchObject({ missing: 2, nan: 1 });
    expect(s.rows[0]).toEqual(['2024-01-01', 21.5, '北京, 朝阳', true]);
    expect(s.rows[1]![1]).toBeNull();
  });
  it('infers integer, float, timestamp and string columns', () => {
    const s = sniff('i,f,t,s\n1,1.5,2024-01-01 10:00:00,a\n-2,3,2024-01-02T11:30,b\n3,1e-3,2024-01-03 12:00:01,7\n');
    expect(s.columns.map((c) => c.kind)).toEqual(['integer', 'float', 'timestamp', 'string']);
  });
  it('rejects a semicolon delimiter with tableFileFormatError', () => {
    const s = sniff('a;b;c\n1;2;3\n');
    expect(s.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'delimiter', details: { delimiter: ';' } });
  });
  it('rejects tab and pipe delimiters', () => {
    expect(sniff('a\tb\n1\t2\n').issues[0]?.details).toMatchObject({ delimiter: 'tab' });
    expect(sniff('a|b\n1|2\n').issues[0]?.details).toMatchObject({ delimiter: '|' });
  });
  it('rejects duplicate columns with tableRepeatedColumns listing them', () => {
    const s = sniff('id,x,x,y,id\n1,2,3,4,5\n');
    expect(s.issues).toHaveLength(1);
    expect(s.issues[0]).toMatchObject({ code: 'tableRepeatedColumns', value: 5008, details: { columns: ['x', 'id'] } });
  });
  it('reports an empty file and a header without rows as datasetEmpty', () => {
    expect(sniff('').issues[0]).toMatchObject({ code: 'datasetEmpty' });
    expect(sniff('\uFEFF\r\n\r\n').issues[0]).toMatchObject({ code: 'datasetEmpty' });
    expect(sniff('a,b\n').issues[0]).toMatchObject({ code: 'datasetEmpty' });
  });
  it('reports a ragged row with its line', () => {
    const s = sniff('a,b\n1,2\n"multi\nline",3\n4,5,6\n');
    expect(s.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'parse', details: { line: 5, fields: 3, expected: 2 } });
  });
  it('reports an unclosed quote at the end of the file', () => {
    expect(reasons(sniff('a,b\n1,"2\n'))).toContain('parse');
  });
  it('rejects text that is not UTF-8 (GBK)', () => {
    const gbk = new Uint8Array([0xc3, 0xfb, 0xb3, 0xc6, 0x2c, 0x61, 0x0a, 0xd6, 0xd0, 0x2c, 0x31, 0x0a]);
    expect(sniff(gbk).issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'encoding' });
  });
  it('accepts a sample cut in the middle of a UTF-8 character and a record', () => {
    const bytes = enc('名称,值\n甲,1\n乙,2\n丙,3');
    const s = sniff(bytes.subarray(0, bytes.length - 4), false);
    expect(s.issues).toEqual([]);
    expect(s.rows).toEqual([['甲', 1], ['乙', 2]]);
  });
});

describe('completeBytes', () => {
  it('ends after the last complete record of a cut sample, counting the BOM and UTF-8 bytes', () => {
    const whole = enc('\uFEFF名,v\n甲,"x\ny"\n乙,2\n丙,3');
    const s = sniffCsv(whole.subarray(0, whole.length - 2), { final: false });
    const prefix = new TextDecoder().decode(whole.subarray(0, s.completeBytes));
    expect(prefix).toBe('名,v\n甲,"x\ny"\n乙,2\n');
  });
});

describe('lastRecordEnd', () => {
  it('agrees with the parser on quotes, CRLF and mid-field quotes', () => {
    expect(lastRecordEnd('a,b\r\n1,"x\r\ny"\r\n2,5"3\r\n3,"open', ',')).toBe('a,b\r\n1,"x\r\ny"\r\n2,5"3\r\n'.length);
    expect(lastRecordEnd('a,b', ',')).toBe(0);
  });
});
