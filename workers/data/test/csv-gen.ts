/**
 * Generates csv files on disk for the browser test and the benchmark: numeric and text
 * columns, quoted fields with commas, Chinese text, missing values and NaN, CRLF line ends.
 */
import { createWriteStream } from 'node:fs';

const CITIES = ['北京', '上海', '"深圳, 南山"', 'Hangzhou', '"He said ""hi"""', '成都'];

/** Facts about a generated file that tests can assert. */
export interface GeneratedCsv {
  path: string;
  bytes: number;
  rows: number;
  /** Rows where `value` is missing (empty) and where it is NaN. */
  valueMissing: number;
  valueNan: number;
}

/**
 * Writes about `bytes` of csv to `path`. Columns: `id` (0..n-1), `value` (float; every 97th row
 * empty, every 101st NaN), `count` (integer 0..999), `城市` (text with quotes and commas),
 * `flag` (true/false), `day` (date).
 */
export async function writeCsv(path: string, bytes: number): Promise<GeneratedCsv> {
  const out = createWriteStream(path);
  const header = 'id,value,count,城市,flag,day\r\n';
  let written = Buffer.byteLength(header);
  out.write(header);
  let rows = 0;
  let valueMissing = 0;
  let valueNan = 0;
  const chunk: string[] = [];
  while (written < bytes) {
    const i = rows;
    let value: string;
    if (i % 97 === 0) {
      value = '';
      valueMissing += 1;
    } else if (i % 101 === 0) {
      value = 'NaN';
      valueNan += 1;
    } else {
      value = ((i % 1000) / 8 - 20).toString();
    }
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const line = `${i},${value},${(i * 7) % 1000},${CITIES[i % CITIES.length]},${i % 3 === 0 ? 'true' : 'false'},${day}\r\n`;
    chunk.push(line);
    written += Buffer.byteLength(line);
    rows += 1;
    if (chunk.length >= 10_000) {
      if (!out.write(chunk.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk.length = 0;
    }
  }
  out.write(chunk.join(''));
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return { path, bytes: written, rows, valueMissing, valueNan };
}
