/**
 * The native path's kernel set: `nativeBlasCore()` names what OpenBLAS picked for this CPU, and
 * `OPENBLAS_CORETYPE` chooses another (the bench reports it, as runs of one seed round
 * differently from one kernel set to another). Without the addon (no libopenblas-dev at install)
 * there is no kernel set to name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon, nativeBlasCore } from '../src/backends/cpu/native-blas.ts';

const addonFile = fileURLToPath(new URL('../native/build/Release/decisio_blas.node', import.meta.url));

describe('nativeBlasCore', () => {
  it('names the kernel set when the addon is built, and is null without it', () => {
    if (loadNativeAddon() === null) {
      expect(existsSync(addonFile) && process.env.DECISIO_NO_NATIVE !== '1').toBe(false);
      expect(nativeBlasCore()).toBeNull();
    } else expect(nativeBlasCore()).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('follows OPENBLAS_CORETYPE, which picks another kernel set', () => {
    if (!existsSync(addonFile)) {
      expect(nativeBlasCore()).toBeNull();
      return;
    }
    const core = (type: string) =>
      execFileSync(process.execPath, ['-e', `process.stdout.write(require(${JSON.stringify(addonFile)}).coreName())`], { env: { ...process.env, OPENBLAS_CORETYPE: type }, encoding: 'utf8' });
    expect(core('Haswell')).toBe('Haswell');
    expect(core('Prescott')).toBe('Prescott');
  });
});
