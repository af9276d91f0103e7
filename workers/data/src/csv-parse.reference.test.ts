/**
 * Cross-checks the TypeScript csv parser against Python's `csv` module on random files with
 * quoted fields, embedded delimiters, quotes and line breaks, CRLF/LF, Chinese text and empty
 * fields.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseCsvRecords } from './csv-sniff';
import { existsSync as pythonExists } from 'node:fs';

/** Debian's python3 (with numpy) when present, else the one on PATH. */
const PYTHON = pythonExists('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';


function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['a', 'b', '1', '2.5', '-3', '北京', '数据', ' ', ',', '"', '\n', '\r\n', 'x y', ''];

function randomCsv(r: () => number, rows: number, cols: number, eol: string): { text: string; expected: string[][] } {
  const expected: string[][] = [];
  const lines: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    const row: string[] = [];
    const cells: string[] = [];
    for (let j = 0; j < cols; j += 1) {
      let v = '';
      const len = Math.floor(r() * 4);
      for (let k = 0; k < len; k += 1) v += PIECES[Math.floor(r() * PIECES.length)]!;
      const needsQuotes = /[",\r\n]/.test(v) || (v === '' && cols === 1);
      row.push(v);
      cells.push(needsQuotes || r() < 0.2 ? `"${v.replace(/"/g, '""')}"` : v);
    }
    expected.push(row);
    lines.push(cells.join(','));
  }
  return { text: lines.join(eol) + (r() < 0.5 ? eol : ''), expected };
}

describe('parseCsvRecords against Python csv', () => {
  it('agrees on 200 random files', () => {
    const r = rng(42);
    const files = Array.from({ length: 200 }, (_, i) => randomCsv(r, 1 + Math.floor(r() * 8), 1 + Math.floor(r() * 5), i % 2 ? '\r\n' : '\n').text);
    const script = 'import csv, io, json, sys\nfiles = json.load(sys.stdin)\nprint(json.dumps([[row for row in csv.reader(io.StringIO(f, newline=""))] for f in files]))';
    const reference = JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(files) }).toString()) as string[][][];
    files.forEach((text, i) => {
      // Python keeps rows that are completely blank as []; the parser skips blank lines.
      const want = reference[i]!.filter((row) => row.length > 0);
      const got = parseCsvRecords(text, ',').records.filter((row) => !(row.length === 1 && row[0] === ''));
      expect(got, JSON.stringify(text)).toEqual(want.filter((row) => !(row.length === 1 && row[0] === '')));
    });
  });

  it('round-trips what it was given', () => {
    const r = rng(7);
    for (let n = 0; n < 100; n += 1) {
      const { text, expected } = randomCsv(r, 1 + Math.floor(r() * 6), 2 + Math.floor(r() * 3), n % 2 ? '\r\n' : '\n');
      expect(parseCsvRecords(text, ',').records, JSON.stringify(text)).toEqual(expected);
    }
  });
});
