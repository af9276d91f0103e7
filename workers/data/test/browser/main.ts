/**
 * Test and benchmark page of the data worker: a file input and `window.dataWorker`, which runs
 * the worker's operations on the chosen file and returns plain results (with timings).
 */
import { createDataWorker } from '../../src/client';
import type { InspectResult, StatsOptions, StatsResult } from '../../src/types';

const client = createDataWorker();
const input = document.querySelector<HTMLInputElement>('#file')!;

function chosen(): File {
  const f = input.files?.[0];
  if (!f) throw new Error('no file chosen');
  return f;
}

/** What the page offers to Playwright. */
export interface PageApi {
  warmUp(): Promise<{ engineMs: number; wallMs: number }>;
  inspect(rows?: number): Promise<InspectResult & { wallMs: number; progress: number }>;
  stats(csvEngine?: StatsOptions['csvEngine']): Promise<StatsResult & { wallMs: number; progress: number; fractions: (number | null)[]; events: { phase: string; fraction: number | null }[] }>;
  compress(): Promise<{ compressed: boolean; ratio: number; bytes: number; wallMs: number }>;
}

const api: PageApi = {
  async warmUp() {
    const t0 = performance.now();
    const r = await client.warmUp();
    return { ...r, wallMs: performance.now() - t0 };
  },
  async inspect(rows) {
    const t0 = performance.now();
    let progress = 0;
    // Progress calls travel on their own port: wait for `done` (always the last report).
    let doneSeen!: () => void;
    const done = new Promise<void>((res) => (doneSeen = res));
    const r = await client.inspect(chosen(), rows ? { rows } : {}, (p) => {
      progress += 1;
      if (p.phase === 'done') doneSeen();
    });
    await done;
    // Typed arrays do not survive page.evaluate: keep shapes and a few values as numbers.
    const heads = (r.heads ?? []).map((h) => ({ ...h, data: Array.from(h.data.slice(0, 8), Number) as unknown as typeof h.data }));
    return { ...r, heads, wallMs: performance.now() - t0, progress };
  },
  async stats(csvEngine) {
    const t0 = performance.now();
    let progress = 0;
    const fractions: (number | null)[] = [];
    const events: { phase: string; fraction: number | null }[] = [];
    // The callback is a comlink proxy on its own message port: its last calls may arrive after
    // the result. `stats` always ends with a `done` report; wait for it so the events are complete.
    let doneSeen!: () => void;
    const done = new Promise<void>((res) => (doneSeen = res));
    const r = await client.stats(chosen(), (p) => {
      progress += 1;
      events.push({ phase: p.phase, fraction: p.fraction });
      if (p.phase === 'scan') fractions.push(p.fraction);
      if (p.phase === 'done') doneSeen();
    }, csvEngine ? { csvEngine } : {});
    await done;
    return { ...r, wallMs: performance.now() - t0, progress, fractions, events };
  },
  async compress() {
    const t0 = performance.now();
    const r = await client.compressStream(chosen());
    let bytes = 0;
    const reader = r.stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    return { compressed: r.compressed, ratio: r.estimatedRatio, bytes, wallMs: performance.now() - t0 };
  },
};

(window as unknown as { dataWorker: PageApi }).dataWorker = api;
document.title = 'ready';
