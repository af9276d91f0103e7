import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { syntheticCsv, syntheticLog } from '@decisio/learning/feedback/synthetic.ts';
import { readTrialFile } from './trial-file';

/** An npy v1 file of float64 (or another dtype descr) values. */
function npy(values: ArrayLike<number>, shape: number[], descr = '<f8'): Uint8Array {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad) + '\n';
  const size = descr.endsWith('8') ? 8 : descr.endsWith('4') ? 4 : 1;
  const out = new Uint8Array(10 + header.length + values.length * size);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(strToU8(header), 10);
  const view = new DataView(out.buffer, 10 + header.length);
  for (let i = 0; i < values.length; i++) {
    if (size === 8) view.setFloat64(i * 8, values[i]!, true);
    else if (size === 4) view.setFloat32(i * 4, values[i]!, true);
    else view.setUint8(i, values[i]!);
  }
  return out;
}

const log = syntheticLog({ rows: 200 });
const file = (name: string, bytes: Uint8Array) => ({ name, bytes });
const npz = (arrays: Record<string, Uint8Array>) => zipSync(Object.fromEntries(Object.entries(arrays).map(([k, v]) => [`${k}.npy`, v])));

describe('trial file check', () => {
  it('reads a good npz and a good csv into the same series', () => {
    const a = readTrialFile(file('log.npz', npz({ obs: npy(log.obs, [200]), act: npy(log.act, [200, 1]), target: npy(log.target!, [200]) })));
    expect(a.check).toMatchObject({ status: 0, code: 0, format: 'npz', rows: 200, obsDim: 1, actDim: 1, hasTarget: true });
    const b = readTrialFile(file('log.csv', strToU8(syntheticCsv(log))));
    expect(b.check).toMatchObject({ status: 0, code: 0, format: 'csv', rows: 200, obsDim: 1, actDim: 1, hasTarget: true });
    expect(Array.from(b.series!.obs.slice(0, 20))).toEqual(Array.from(a.series!.obs.slice(0, 20)));
    expect(Array.from(b.series!.act.slice(0, 20))).toEqual(Array.from(a.series!.act.slice(0, 20)));
  });

  it('gives each broken file its status and catalogue code', () => {
    const cases: Array<[string, ReturnType<typeof readTrialFile>, number, string]> = [
      ['no file', readTrialFile(null), 1, 'gfsFileMissing'],
      ['empty file', readTrialFile(file('x.csv', new Uint8Array())), 2, 'gfsReadFailed'],
      ['broken zip', readTrialFile(file('x.npz', strToU8('PK\u0003\u0004 not really a zip'))), 2, 'gfsReadFailed'],
      ['binary csv', readTrialFile(file('x.csv', Uint8Array.of(0xff, 0xfe, 0, 1, 2))), 2, 'gfsReadFailed'],
      ['no act array', readTrialFile(file('x.npz', npz({ obs: npy(log.obs, [200]), u: npy(log.act, [200]) }))), 3, 'gfsKeyMissing'],
      ['no obs column', readTrialFile(file('x.csv', strToU8('y,act\n1,2\n'))), 3, 'gfsKeyMissing'],
      ['too short', readTrialFile(file('x.csv', strToU8(syntheticCsv(syntheticLog({ rows: 30 }))))), 4, 'gfsTooShort'],
      ['NaN in npz', readTrialFile(file('x.npz', npz({ obs: npy(Float64Array.from(log.obs, (v, i) => (i === 50 ? Number.NaN : v)), [200]), act: npy(log.act, [200]) }))), 5, 'gfsNanValues'],
      ['empty csv cell', readTrialFile(file('x.csv', strToU8(syntheticCsv(log).replace(/\n([^,\n]+),/, '\n,')))), 5, 'gfsNanValues'],
      ['constant act', readTrialFile(file('x.npz', npz({ obs: npy(log.obs, [200]), act: npy(new Float64Array(200).fill(3), [200]) }))), 6, 'gfsNoVariation'],
      ['text cell', readTrialFile(file('x.csv', strToU8(syntheticCsv(log).replace(/\n([^,\n]+),/, '\nhello,')))), 7, 'gfsNotNumeric'],
      ['string dtype', readTrialFile(file('x.npz', npz({ obs: npy(new Uint8Array(200 * 4), [200], '<U1'), act: npy(log.act, [200]) }))), 7, 'gfsNotNumeric'],
      ['lengths differ', readTrialFile(file('x.npz', npz({ obs: npy(log.obs, [200]), act: npy(log.act.subarray(0, 150), [150]) }))), 10, 'gfsUnknown'],
    ];
    for (const [name, r, status, error] of cases) {
      expect({ name, status: r.check.status, code: r.check.code, error: r.check.error }).toEqual({ name, status, code: 10000 + status, error });
      expect(r.series, name).toBeUndefined();
      expect(r.check.detail, name).toBeTruthy();
    }
  });
});
