/**
 * A csv scan worker: scans one byte range of a local file for column statistics
 * (`csv-scan.ts`) and hands back mergeable partials. Started by the data worker, one per range
 * (`csv-scan-parallel.ts`), through comlink.
 */
import { expose, transfer } from 'comlink';
import { blobSource } from './byte-source';
import { outcomeOf, scanRange, type ScanColumn, type ScanOutcome } from './csv-scan';
import type { ScanRange } from './csv-scan-parallel';

/** What a scan worker offers. */
export interface ScanWorkerApi {
  scan(file: Blob, columns: ScanColumn[], range: ScanRange, onBytes: (bytes: number) => void): Promise<ScanOutcome>;
}

const api: ScanWorkerApi = {
  async scan(file, columns, range, onBytes) {
    const source = blobSource(file);
    let last = 0;
    const progress = (bytes: number) => void Promise.resolve(onBytes(bytes)).catch(() => undefined);
    const outcome = await outcomeOf(
      scanRange((offset, length) => source.read(offset, length), columns, range, (bytes) => {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        progress(bytes);
      }),
    );
    if (!outcome.ok) return outcome;
    progress(outcome.value.end - range.start);
    return transfer(outcome, outcome.value.columns.map((c) => c.registers.buffer));
  },
};

expose(api);
