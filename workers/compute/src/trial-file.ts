/**
 * Reads and checks a feedback-control trial file (npz or csv) in the browser: finds the
 * observation and action series (and an optional set-point), and answers the spec's
 * data-quality status (`GFS_QUALITY`, catalogue code 10000 + status) with a detail. Nothing
 * leaves the browser.
 *
 * - npz: arrays named `obs` / `observation(s)` / `state(s)`, `act` / `action(s)`, optional
 *   `target` / `setpoint`; 1-D (one dimension) or 2-D `[rows, dims]`; numeric dtypes only.
 * - csv (comma or semicolon, header row): columns whose name starts with `obs` or `act`, and an
 *   optional `target` / `setpoint` column.
 *
 * Checks, in order: file given, readable, keys present, numeric, no NaN / missing values,
 * at least `GFS_LIMITS.minRows` rows, every obs and act column varies.
 */
import { unzipSync } from 'fflate';
import { GFS_LIMITS, GFS_QUALITY, GFS_QUALITY_ERRORS, gfsQualityCode, type GfsFileCheck, type GfsQualityName } from '@decisio/domain';
import type { TrialSeries } from '@decisio/learning/feedback/data.ts';
import { readNpy } from '@decisio/worker-data/npy.ts';

/** A check and, when it passed, the series. */
export interface TrialFileRead {
  check: GfsFileCheck;
  series?: TrialSeries;
}

const OBS_KEYS = ['obs', 'observation', 'observations', 'state', 'states'];
const ACT_KEYS = ['act', 'action', 'actions'];
const TARGET_KEYS = ['target', 'setpoint', 'set_point', 'sp'];

/** Failure of one of the checks. */
class QualityError extends Error {
  constructor(readonly quality: Exclude<GfsQualityName, 'normal'>, detail: string) {
    super(detail);
  }
}

function fail(quality: Exclude<GfsQualityName, 'normal'>, detail: string): never {
  throw new QualityError(quality, detail);
}

function answer(quality: GfsQualityName, extra: Omit<GfsFileCheck, 'status' | 'code' | 'error'>): GfsFileCheck {
  const status = GFS_QUALITY[quality];
  return { status, code: gfsQualityCode(status), ...(quality === 'normal' ? {} : { error: GFS_QUALITY_ERRORS[quality] }), ...extra };
}

/** A 2-D float32 series `[rows, dims]`. */
interface Matrix {
  rows: number;
  dims: number;
  data: Float32Array;
}

function fromNpy(name: string, bytes: Uint8Array): Matrix {
  let arr: ReturnType<typeof readNpy>;
  try {
    arr = readNpy(bytes);
  } catch (e) {
    const reason = (e as { issue?: { reason?: string } }).issue?.reason;
    if (reason === 'npyDtype') fail('notNumeric', `${name}: ${(e as Error).message}`);
    fail('readFailed', `${name}: ${(e as Error).message}`);
  }
  const shape = arr.header.shape;
  if (shape.length === 0 || shape.length > 2) fail('readFailed', `${name}: shape (${shape.join(', ')}) is not 1-D or 2-D`);
  const rows = shape[0]!;
  const dims = shape[1] ?? 1;
  const data = new Float32Array(rows * dims);
  const src = arr.data as ArrayLike<number | bigint>;
  for (let i = 0; i < data.length; i++) data[i] = Number(src[i]);
  return { rows, dims, data };
}

function pickKey(keys: readonly string[], wanted: readonly string[]): string | undefined {
  return keys.find((k) => wanted.includes(k.toLowerCase()));
}

function readNpz(bytes: Uint8Array): { obs: Matrix; act: Matrix; target: Matrix | null } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (e) {
    fail('readFailed', `not a readable npz (zip) file: ${(e as Error).message}`);
  }
  const names = Object.keys(files).filter((k) => k.endsWith('.npy')).map((k) => k.slice(0, -4));
  if (names.length === 0) fail('readFailed', 'the npz file holds no .npy arrays');
  const obsKey = pickKey(names, OBS_KEYS);
  const actKey = pickKey(names, ACT_KEYS);
  if (!obsKey || !actKey) fail('keyMissing', `arrays found: ${names.join(', ')}; missing ${!obsKey ? 'obs' : 'act'}`);
  const targetKey = pickKey(names, TARGET_KEYS);
  return {
    obs: fromNpy(obsKey, files[`${obsKey}.npy`]!),
    act: fromNpy(actKey, files[`${actKey}.npy`]!),
    target: targetKey ? fromNpy(targetKey, files[`${targetKey}.npy`]!) : null,
  };
}

const MISSING = new Set(['', 'nan', 'na', 'n/a', 'null', 'none']);

function splitLine(line: string, delim: string): string[] {
  return line.split(delim).map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim());
}

function readCsv(bytes: Uint8Array): { obs: Matrix; act: Matrix; target: Matrix | null } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail('readFailed', 'the file is not UTF-8 text');
  }
  if (text.includes('\u0000')) fail('readFailed', 'the file is binary, not csv text');
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) fail('readFailed', 'the csv file is empty');
  const head = lines[0]!;
  const delim = !head.includes(',') && head.includes(';') ? ';' : ',';
  const header = splitLine(head, delim);
  const obsCols = header.flatMap((h, i) => (/^(obs|observation|state)/i.test(h) ? [i] : []));
  const actCols = header.flatMap((h, i) => (/^(act|action)/i.test(h) ? [i] : []));
  const targetCol = header.findIndex((h) => TARGET_KEYS.includes(h.toLowerCase()));
  if (obsCols.length === 0 || actCols.length === 0) fail('keyMissing', `columns found: ${header.join(', ')}; missing ${obsCols.length === 0 ? 'obs' : 'act'}`);
  const rows = Math.min(lines.length - 1, GFS_LIMITS.maxRows);
  const take = (cols: number[]): Matrix => ({ rows, dims: cols.length, data: new Float32Array(rows * cols.length) });
  const obs = take(obsCols);
  const act = take(actCols);
  const target = targetCol >= 0 ? take([targetCol]) : null;
  let missingAt: string | null = null;
  for (let r = 0; r < rows; r++) {
    const cells = splitLine(lines[r + 1]!, delim);
    const put = (m: Matrix, cols: number[]) => {
      cols.forEach((c, j) => {
        const cell = cells[c] ?? '';
        if (MISSING.has(cell.toLowerCase())) {
          missingAt ??= `row ${r + 2}, column ${header[c]}`;
          m.data[r * m.dims + j] = Number.NaN;
          return;
        }
        const v = Number(cell);
        if (Number.isNaN(v)) fail('notNumeric', `row ${r + 2}, column ${header[c]}: "${cell.slice(0, 40)}"`);
        m.data[r * m.dims + j] = v;
      });
    };
    put(obs, obsCols);
    put(act, actCols);
    if (target) put(target, [targetCol]);
  }
  if (missingAt) fail('nanValues', `missing value at ${missingAt}`);
  return { obs, act, target };
}

function firstNaN(m: Matrix): number {
  for (let i = 0; i < m.data.length; i++) if (!Number.isFinite(m.data[i]!)) return Math.floor(i / m.dims);
  return -1;
}

function constantColumn(m: Matrix): number {
  for (let d = 0; d < m.dims; d++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let r = 0; r < m.rows; r++) {
      const v = m.data[r * m.dims + d]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (!(hi > lo)) return d;
  }
  return -1;
}

/**
 * Reads and checks a trial file held in memory. `file` null means no file was given.
 * Never throws: every failure is a status.
 */
export function readTrialFile(file: { name: string; bytes: Uint8Array } | null): TrialFileRead {
  if (!file) return { check: answer('fileMissing', { detail: 'no file' }) };
  const fileName = file.name;
  let format: 'npz' | 'csv' | undefined;
  try {
    if (file.bytes.length === 0) fail('readFailed', 'the file is empty');
    const zip = file.bytes[0] === 0x50 && file.bytes[1] === 0x4b;
    format = /\.npz$/i.test(fileName) || (zip && !/\.csv$/i.test(fileName)) ? 'npz' : 'csv';
    const { obs, act, target } = format === 'npz' ? readNpz(file.bytes) : readCsv(file.bytes);
    if (obs.rows !== act.rows || (target && target.rows !== obs.rows)) fail('unknown', `series lengths differ: obs ${obs.rows}, act ${act.rows}${target ? `, target ${target.rows}` : ''}`);
    if (target && target.dims !== 1 && target.dims !== obs.dims) fail('unknown', `target has ${target.dims} columns, obs ${obs.dims}`);
    if (obs.dims > GFS_LIMITS.maxDims || act.dims > GFS_LIMITS.maxDims) fail('unknown', `at most ${GFS_LIMITS.maxDims} obs and act columns`);
    for (const [key, m] of [['obs', obs], ['act', act], ['target', target]] as const) {
      if (!m) continue;
      const r = firstNaN(m);
      if (r >= 0) fail('nanValues', `${key}: NaN or infinite value in row ${r + 1}`);
    }
    const rows = Math.min(obs.rows, GFS_LIMITS.maxRows);
    if (rows < GFS_LIMITS.minRows) fail('tooShort', `${rows} rows; at least ${GFS_LIMITS.minRows} are needed`);
    for (const [key, m] of [['obs', obs], ['act', act]] as const) {
      const d = constantColumn(m);
      if (d >= 0) fail('noVariation', `${key} column ${d + 1} never changes`);
    }
    let targetData: Float32Array | null = null;
    if (target) {
      targetData = new Float32Array(rows * obs.dims);
      for (let r = 0; r < rows; r++) for (let d = 0; d < obs.dims; d++) targetData[r * obs.dims + d] = target.data[r * target.dims + (target.dims === 1 ? 0 : d)]!;
    }
    const series: TrialSeries = {
      rows,
      obsDim: obs.dims,
      actDim: act.dims,
      obs: obs.data.subarray(0, rows * obs.dims),
      act: act.data.subarray(0, rows * act.dims),
      target: targetData,
    };
    return { check: answer('normal', { fileName, format, rows, obsDim: obs.dims, actDim: act.dims, hasTarget: !!target }), series };
  } catch (e) {
    if (e instanceof QualityError) return { check: answer(e.quality, { fileName, format, detail: e.message }) };
    return { check: answer('unknown', { fileName, format, detail: e instanceof Error ? e.message : String(e) }) };
  }
}
