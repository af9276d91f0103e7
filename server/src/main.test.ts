import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The process entry: start-up migrations, the banner, graceful shutdown on SIGTERM.
describe('main.ts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-main-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /**
   * Starts `main.ts` with `args`, waits for the banner (printed after the job queue started: its
   * first job thread has loaded its kinds), checks the health call, then stops it with SIGTERM.
   */
  async function startAndStop(args: string[], dir: string) {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'warn', PUBLIC_DIR: path.join(dir, 'none') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner; stderr: ${stderr}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const m = /Decisio is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}; stderr: ${stderr}`)));
    });
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', db: 'sqlite' });
    expect(fs.existsSync(path.join(dir, 'decisio.sqlite'))).toBe(true);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }

  it('migrates, prints its address, and exits cleanly on SIGTERM', async () => {
    await startAndStop(['--import', 'tsx', 'server/src/main.ts'], dataDir);
  }, 90_000);

  it('starts its job threads under the command line of `npm start` (tsx CLI, scripts/start.mjs)', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-main-'));
    try {
      await startAndStop([path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'server', 'src', 'main.ts')], own);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 90_000);
});
