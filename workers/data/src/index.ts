/**
 * `@decisio/worker-data`: previews and checks a local dataset file (csv, npz, h5) in a Web
 * Worker before upload. The main thread calls {@link createDataWorker}; the pure parsers are
 * exported for reuse and tests.
 */
export { createDataWorker, type DataWorkerClient, type DataWorkerOptions } from './client';
export type * from './types';
export { codeOf, issue, DataIssueError } from './issues';
export { checkFileMeta } from './name-check';
export { detectFileKind, isHdf5, isUtf8Text, isZip } from './file-kind';
export {
  CANDIDATE_DELIMITERS,
  detectDelimiter,
  duplicateColumns,
  inferColumns,
  parseCsvRecords,
  sniffCsv,
  type CsvSniff,
  type Delimiter,
} from './csv-sniff';
export { parseNpyHeader, readNpy, type NpyHeader, type NpyDtype } from './npy';
export { listNpz, readNpzHead, streamNpzArray, type NpzArray } from './npz';
export { readZipDirectory, type ZipEntry } from './zip-reader';
export { checkReviveLayout, REVIVE_INDEX } from './revive';
export { ArrayStats, NumericAccumulator } from './column-stats';
export { estimateGzipRatio, compressFile, DEFAULT_COMPRESS_THRESHOLD } from './compress';
export { inspectFile, DEFAULT_PREVIEW_ROWS, type DataDeps } from './inspect';
export { statsFile, SCAN_MIN_BYTES } from './stats';
export { CsvStatsScanner, CsvScanError, CsvScanUnsupported, scanRange, columnStatsOf, mergePartial, type ScanColumn, type ColumnPartial } from './csv-scan';
export { scanCsvInRanges, inThreadRunner, type CsvScanResult, type RangeRunner, type ScanRange } from './csv-scan-parallel';
export { blobSource, bytesSource, type ByteSource } from './byte-source';
