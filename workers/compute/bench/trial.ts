/**
 * `npm run bench -- trial`: the feedback-control trial in headless Chromium, on WebGPU
 * (`--enable-unsafe-webgpu`; on a machine without a GPU that is SwiftShader, a CPU emulation, so
 * its figure is a correctness figure, not a GPU speed) and on the WebAssembly/CPU path, side by
 * side in one run, in a module worker of a cross-origin isolated page, as the workbench runs it.
 * Prints one JSON line per figure (steps/s; the CPU path is the baseline of the WebGPU ratio).
 *
 * Flags: `--quick` (fewer steps), `--model-steps=N`, `--controller-steps=N`.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrialBenchFigure } from './trial-entry.ts';

const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const quick = process.argv.includes('--quick');
const modelSteps = Number(arg('model-steps') ?? (quick ? 60 : 200));
const controllerSteps = Number(arg('controller-steps') ?? (quick ? 20 : 60));
const rows = 1200;

async function bundle(): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: here,
    build: {
      write: false,
      minify: false,
      target: 'esnext',
      lib: { entry: join(here, 'trial-entry.ts'), formats: ['es'], fileName: 'entry' },
      rollupOptions: { external: [/^node:/, 'webgpu'] },
    },
  });
  for (const o of Array.isArray(out) ? out : [out]) {
    if ('output' in o) for (const chunk of o.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  }
  throw new Error('vite produced no entry chunk');
}

const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const PAGE = `<!doctype html><meta charset="utf-8"><title>trial bench</title><script>
window.runBench = (opts) => new Promise((resolve) => {
  const w = new Worker('/entry.js', { type: 'module' });
  w.onmessage = (e) => resolve(e.data);
  w.onerror = (e) => resolve({ error: 'worker error: ' + (e.message || 'unknown') });
  w.postMessage(opts);
});
</script>`;

function serve(js: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const isJs = req.url === '/entry.js';
    res.writeHead(200, { 'content-type': isJs ? 'text/javascript' : 'text/html', ...ISOLATION });
    res.end(isJs ? js : PAGE);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/` });
    });
  });
}

const exe = process.env.CHROMIUM_PATH ?? CANDIDATES.find((p) => existsSync(p));
if (!exe) {
  console.error(`trial bench: no Chromium (tried ${CANDIDATES.join(', ')}; set CHROMIUM_PATH)`);
  process.exit(1);
}
const { server, url } = await serve(await bundle());
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: exe, headless: true, args: ['--no-sandbox', '--disable-background-networking', '--no-first-run', '--enable-unsafe-webgpu'] });
try {
  const page = await browser.newPage();
  await page.goto(url);
  const report = (await page.evaluate((opts) => (window as unknown as { runBench: (o: unknown) => Promise<unknown> }).runBench(opts), { modelSteps, controllerSteps, rows })) as {
    figures?: TrialBenchFigure[];
    isolated?: boolean;
    cores?: number;
    error?: string;
  };
  if (!report.figures) throw new Error(report.error ?? 'no figures');
  const cpu = report.figures.find((f) => f.asked === 'cpu')!;
  for (const f of report.figures) {
    const software = /swiftshader|software/i.test(f.adapter ?? '');
    const line = {
      bench: `gfs-trial-${f.asked === 'cpu' ? 'wasm-cpu' : 'webgpu'}`,
      value: Number(f.stepsPerSecond.toFixed(2)),
      unit: 'steps/s',
      ...(f.asked === 'webgpu' ? { baseline: 'gfs-trial-wasm-cpu', ratio: cpu.stepsPerSecond > 0 ? Number((f.stepsPerSecond / cpu.stepsPerSecond).toFixed(4)) : null } : {}),
      backend: f.backend,
      path: f.path,
      reason: f.reason,
      adapter: f.adapter ?? null,
      model_steps_s: Number(f.modelStepsPerSecond.toFixed(2)),
      controller_steps_s: Number(f.controllerStepsPerSecond.toFixed(2)),
      steps: { model: modelSteps, controller: controllerSteps, rows },
      controller_cost: f.controllerCost,
      logged_cost: f.loggedCost,
      model_mse: f.modelMse,
      isolated: report.isolated,
      cores: report.cores,
      ...(f.error ? { error: f.error } : {}),
      note: f.asked === 'webgpu' ? (f.backend !== 'webgpu' ? 'no WebGPU adapter: ran on the CPU path' : software ? 'software adapter (SwiftShader): a correctness figure, not a GPU speed' : 'hardware adapter') : 'WebAssembly SIMD path of the compute core in a module worker',
    };
    console.log(JSON.stringify(line));
  }
} finally {
  await browser.close();
  server.close();
}
