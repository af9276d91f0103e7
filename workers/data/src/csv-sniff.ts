/**
 * CSV sniffing on a sample from the start of a file, in plain TypeScript: decoding (UTF-8, BOM),
 * RFC 4180 records (quoted fields with delimiters, quotes and newlines; CRLF, LF or CR),
 * delimiter detection, header checks (duplicates), ragged rows, value types and missing counts.
 * It runs before DuckDB so that the spec's checks do not depend on the engine, and it previews
 * files when the engine is not available (Node, tests).
 */
import { issue } from './issues';
import type { Cell, ColumnKind, ColumnSchema, DataIssue } from './types';

/** Delimiters recognised by {@link detectDelimiter}; only the comma is accepted for upload. */
export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;
/** A recognised delimiter. */
export type Delimiter = (typeof CANDIDATE_DELIMITERS)[number];

/** Cell texts read as missing values (case-sensitive, after trimming). */
export const MISSING_TOKENS: ReadonlySet<string> = new Set(['', 'NA', 'N/A', 'na', 'n/a', 'null', 'NULL', 'Null', 'None', 'nan', 'NaN', 'NAN', '-nan']);
const NAN_TOKENS: ReadonlySet<string> = new Set(['nan', 'NaN', 'NAN', '-nan']);

/** Records parsed from a sample. */
export interface ParsedRecords {
  records: string[][];
  /** 1-based line where each record starts. */
  lines: number[];
  /** True when the text ended inside a quoted field (cut sample or unbalanced quote). */
  openQuote: boolean;
  /** True when the last record was cut by the end of a non-final sample and dropped. */
  truncated: boolean;
  /** Index in the text just after the last returned record (its line break included). */
  end: number;
}

/**
 * Splits CSV text into records. Blank lines are skipped. With `final: false` the last record
 * (which may be cut by the sample) is dropped. Stops after `maxRecords`.
 */
export function parseCsvRecords(
  text: string,
  delimiter: string,
  options: { maxRecords?: number; final?: boolean } = {},
): ParsedRecords {
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const final = options.final ?? true;
  const records: string[][] = [];
  const lines: number[] = [];
  let field = '';
  let row: string[] = [];
  let inQuotes = false;
  let fieldStarted = false;
  let line = 1;
  let rowLine = 1;
  let i = 0;
  let end = 0;
  const n = text.length;
  const endRow = (): boolean => {
    row.push(field);
    field = '';
    fieldStarted = false;
    const blank = row.length === 1 && row[0] === '';
    if (!blank) {
      records.push(row);
      lines.push(rowLine);
    }
    row = [];
    return records.length >= maxRecords;
  };
  const d = delimiter.charCodeAt(0);
  while (i < n) {
    const c = text.charCodeAt(i);
    if (inQuotes) {
      // Copy the run up to the next quote at once.
      const q = text.indexOf('"', i);
      const stop = q < 0 ? n : q;
      for (let k = text.indexOf('\n', i); k >= 0 && k < stop; k = text.indexOf('\n', k + 1)) line += 1;
      for (let k = text.indexOf('\r', i); k >= 0 && k < stop; k = text.indexOf('\r', k + 1)) if (text.charCodeAt(k + 1) !== 10) line += 1;
      field += text.slice(i, stop);
      if (q < 0) {
        i = n;
        break;
      }
      if (text.charCodeAt(q + 1) === 34) {
        field += '"';
        i = q + 2;
        continue;
      }
      inQuotes = false;
      i = q + 1;
      continue;
    }
    if (c === 34 && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
      i += 1;
      continue;
    }
    if (c === d) {
      row.push(field);
      field = '';
      fieldStarted = false;
      i += 1;
      continue;
    }
    if (c === 13 || c === 10) {
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      line += 1;
      end = i;
      if (endRow()) return { records, lines, openQuote: false, truncated: false, end };
      rowLine = line;
      continue;
    }
    // Copy the unquoted run up to the next delimiter or line break at once.
    let j = i + 1;
    while (j < n) {
      const cj = text.charCodeAt(j);
      if (cj === d || cj === 10 || cj === 13) break;
      j += 1;
    }
    field += text.slice(i, j);
    fieldStarted = true;
    i = j;
  }
  const pending = field !== '' || row.length > 0 || fieldStarted;
  if (pending && (final && !inQuotes)) {
    endRow();
    return { records, lines, openQuote: false, truncated: false, end: n };
  }
  return { records, lines, openQuote: inQuotes, truncated: pending && !final, end: pending ? end : n };
}

/**
 * Index just after the last line break that ends a record (outside quotes), following the same
 * quoting rules as {@link parseCsvRecords}; 0 when no record is complete. A fast scan that
 * builds no strings, for cutting a sample at a record boundary.
 */
export function lastRecordEnd(text: string, delimiter: string): number {
  const d = delimiter.charCodeAt(0);
  let inQuotes = false;
  let fieldStarted = false;
  let end = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inQuotes) {
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i += 1;
        else inQuotes = false;
      }
      continue;
    }
    if (c === 34 && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c === d) {
      fieldStarted = false;
    } else if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) i += 1;
      end = i + 1;
      fieldStarted = false;
    } else {
      fieldStarted = true;
    }
  }
  return end;
}

/** Delimiter guess with the evidence behind it. */
export interface DelimiterGuess {
  delimiter: Delimiter;
  /** Fields per record with that delimiter (the most common count). */
  fields: number;
  /** Share of sampled records with that count, 0..1. */
  consistency: number;
}

/**
 * Guesses the delimiter from the first records of a sample: for each candidate, the most common
 * field count and how many records share it; the best candidate has the most consistent count
 * above one field, then the most fields. A file of one column gives the comma.
 */
export function detectDelimiter(text: string, options: { final?: boolean; sampleRecords?: number } = {}): DelimiterGuess {
  const sampleRecords = options.sampleRecords ?? 50;
  let best: DelimiterGuess = { delimiter: ',', fields: 1, consistency: 1 };
  let bestScore = -1;
  for (const d of CANDIDATE_DELIMITERS) {
    const { records } = parseCsvRecords(text, d, { maxRecords: sampleRecords, final: options.final ?? true });
    if (records.length === 0) continue;
    const counts = new Map<number, number>();
    for (const r of records) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    let fields = 1;
    let freq = 0;
    for (const [k, v] of counts) if (v > freq || (v === freq && k > fields)) [fields, freq] = [k, v];
    if (fields < 2) continue;
    const consistency = freq / records.length;
    const score = consistency * 1000 + Math.min(fields, 999);
    if (score > bestScore) {
      bestScore = score;
      best = { delimiter: d, fields, consistency };
    }
  }
  return best;
}

/**
 * Names that occur more than once in a header, in order of first repeat. Names are compared
 * trimmed and case-insensitively (`Price` and `price` clash), because the SQL engines the data
 * goes to (DuckDB here, the server's database) fold identifier case.
 */
export function duplicateColumns(header: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  const dupKeys = new Set<string>();
  for (const raw of header) {
    const name = raw.trim();
    const key = name.toLowerCase();
    if (seen.has(key) && !dupKeys.has(key)) {
      dup.push(name);
      dupKeys.add(key);
    }
    seen.add(key);
  }
  return dup;
}

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|Infinity|INF)$/;
const BOOL_RE = /^(true|false|True|False|TRUE|FALSE)$/;
const DATE_RE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}$/;
const TIMESTAMP_RE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The narrowest kind of one non-missing cell text. */
export function cellKind(text: string): Exclude<ColumnKind, 'empty'> {
  if (INT_RE.test(text)) return 'integer';
  if (FLOAT_RE.test(text)) return 'float';
  if (BOOL_RE.test(text)) return 'boolean';
  if (DATE_RE.test(text)) return 'date';
  if (TIMESTAMP_RE.test(text)) return 'timestamp';
  return 'string';
}

/** Joins two kinds into the narrowest kind holding both. */
export function joinKinds(a: ColumnKind, b: ColumnKind): ColumnKind {
  if (a === b || b === 'empty') return a;
  if (a === 'empty') return b;
  const pair = new Set([a, b]);
  if (pair.has('integer') && pair.has('float')) return 'float';
  if (pair.has('date') && pair.has('timestamp')) return 'timestamp';
  return 'string';
}

/** Column kinds and missing/NaN counts of string rows. */
export function inferColumns(header: readonly string[], rows: readonly string[][]): ColumnSchema[] {
  return header.map((name, c) => {
    let kind: ColumnKind = 'empty';
    let missing = 0;
    let nan = 0;
    for (const r of rows) {
      const t = (r[c] ?? '').trim();
      if (MISSING_TOKENS.has(t)) {
        missing += 1;
        if (NAN_TOKENS.has(t)) nan += 1;
        continue;
      }
      kind = joinKinds(kind, cellKind(t));
    }
    const rawType = { integer: 'int64', float: 'float64', boolean: 'bool', date: 'date', timestamp: 'timestamp', string: 'string', empty: 'null' }[kind];
    return { name: name.trim(), kind, rawType, missing, nan };
  });
}

/** A cell text converted for preview by its column kind. */
export function toCell(text: string | undefined, kind: ColumnKind): Cell {
  const t = (text ?? '').trim();
  if (MISSING_TOKENS.has(t)) return null;
  if (kind === 'integer' || kind === 'float') return Number(t.replace(/^inf$|^INF$/, 'Infinity'));
  if (kind === 'boolean') return t.toLowerCase() === 'true';
  return text ?? '';
}

/** Result of {@link sniffCsv}. */
export interface CsvSniff {
  /** Delimiter found in the sample (issues report any other than the comma). */
  delimiter: Delimiter;
  hasBom: boolean;
  lineEnding: 'crlf' | 'lf' | 'cr' | 'none';
  header: string[];
  /** Data rows as text (at most `rows`). */
  rawRows: string[][];
  /** Data rows converted by column kind. */
  rows: Cell[][];
  columns: ColumnSchema[];
  issues: DataIssue[];
  /**
   * Bytes of the sample up to the end of its last complete record (BOM included): a prefix of
   * the file that an engine can read as a whole csv.
   */
  completeBytes: number;
}

/**
 * Decodes a sample from the start of a CSV file and runs the spec's checks on it: UTF-8 text,
 * not empty (a header without data rows is empty), comma delimiter, no duplicate column names,
 * every sampled row with as many fields as the header. `final` says the sample is the whole
 * file (otherwise its last, possibly cut, record is dropped).
 */
export function sniffCsv(sample: Uint8Array, options: { final: boolean; rows?: number }): CsvSniff {
  const maxRows = options.rows ?? 100;
  const hasBom = sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf;
  const empty: CsvSniff = { delimiter: ',', hasBom, lineEnding: 'none', header: [], rawRows: [], rows: [], columns: [], issues: [], completeBytes: 0 };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(sample, { stream: !options.final });
  } catch {
    return { ...empty, issues: [issue('encoding', 'the file is not UTF-8 text')] };
  }
  const lineEnding = /\r\n/.test(text) ? 'crlf' : /\n/.test(text) ? 'lf' : /\r/.test(text) ? 'cr' : 'none';
  if (text.trim() === '') return { ...empty, lineEnding, issues: [issue('empty', 'the file holds no data')] };
  const issues: DataIssue[] = [];
  const guess = detectDelimiter(text, { final: options.final });
  if (guess.delimiter !== ',') {
    const shown = guess.delimiter === '\t' ? 'tab' : guess.delimiter;
    issues.push(issue('delimiter', `the delimiter is "${shown}", only the comma is accepted`, { delimiter: shown, fields: guess.fields }));
  }
  const parsed = parseCsvRecords(text, guess.delimiter, { maxRecords: maxRows + 1, final: options.final });
  const header = (parsed.records[0] ?? []).map((h) => h.trim());
  const rawRows = parsed.records.slice(1);
  if (rawRows.length === 0 && !parsed.truncated) {
    issues.push(issue('empty', 'the file has a header and no data rows'));
  }
  if (parsed.openQuote && options.final) {
    issues.push(issue('parse', 'a quoted field is not closed', { line: parsed.lines.at(-1) ?? 1 }));
  }
  const dups = duplicateColumns(header);
  if (dups.length > 0) issues.push(issue('duplicateColumns', `duplicate column names: ${dups.join(', ')}`, { columns: dups }));
  const ragged = rawRows.findIndex((r) => r.length !== header.length);
  if (ragged >= 0 && guess.delimiter === ',') {
    const r = rawRows[ragged]!;
    issues.push(issue('parse', `line ${parsed.lines[ragged + 1]} has ${r.length} fields, the header has ${header.length}`, {
      line: parsed.lines[ragged + 1],
      fields: r.length,
      expected: header.length,
    }));
  }
  const columns = inferColumns(header, rawRows);
  const rows = rawRows.map((r) => columns.map((col, c) => toCell(r[c], col.kind)));
  let completeBytes = sample.length;
  if (!options.final) {
    const end = lastRecordEnd(text, guess.delimiter);
    completeBytes = (hasBom ? 3 : 0) + new TextEncoder().encode(text.slice(0, end)).length;
  }
  return { delimiter: guess.delimiter, hasBom, lineEnding, header, rawRows, rows, columns, issues, completeBytes };
}
