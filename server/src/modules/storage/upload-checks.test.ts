import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

/**
 * Dataset uploads get the checks of `table/create` when they complete (empty, binary, another
 * delimiter, repeated columns), with the same codes, and a refused file frees its space; the
 * used space is explained by its parts.
 */
describe.each(databases)('storage upload checks on %s', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function send(name: string, bytes: Uint8Array, purpose: 'dataset' | 'file' = 'dataset') {
    const init = await server.call('file/uploadpartinit', { token, body: { name, size: bytes.length, purpose } });
    if (init.body.code !== 0) return { init, done: null };
    const uploadId = init.body.data.uploadId as string;
    const put = await server.fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`, {
      method: 'PUT',
      headers: { Authorization: token, 'Content-Type': 'application/octet-stream' },
      body: bytes as unknown as BodyInit,
    });
    expect(put.status).toBe(200);
    const done = await server.call('file/uploadPartComplete', { token, body: { uploadId } });
    return { init, done, uploadId };
  }
  const text = (s: string) => new TextEncoder().encode(s);
  const space = async () => (await server.call('file/getFreeSpace', { token })).body.data;

  it('answers datasetEmpty for an empty dataset file before anything is sent', async () => {
    const { init } = await send('empty.csv', new Uint8Array(0));
    expect(init.body.code).toBe(ErrorCode.datasetEmpty);
    const general = await send('empty.txt', new Uint8Array(0), 'file');
    expect(general.init.body).toMatchObject({ code: ErrorCode.paramInvalid, errors: { size: expect.any(String) } });
  });

  it('refuses a binary file named .csv, another delimiter, repeated columns and a header alone, and frees their space', async () => {
    const before = (await space()).usedBytes;
    const binary = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const cases: [string, Uint8Array, number][] = [
      ['photo.csv', binary, ErrorCode.tableFileFormatError],
      ['semi.csv', text('a;b;c\n1;2;3\n4;5;6\n'), ErrorCode.tableFileFormatError],
      ['twice.csv', text('a,b,A\n1,2,3\n'), ErrorCode.tableRepeatedColumns],
      ['header.csv', text('a,b,c\n'), ErrorCode.datasetEmpty],
      ['broken.npz', text('not a zip at all'), ErrorCode.tableFileFormatError],
    ];
    for (const [name, bytes, code] of cases) {
      const { done, uploadId } = await send(name, bytes);
      expect(done!.body.code, name).toBe(code);
      const state = await server.call('file/uploadPartList', { token, body: { uploadId } });
      expect(state.body.data.state, name).toBe('aborted');
    }
    const semi = await send('semi2.csv', text('a;b\n1;2\n'));
    expect(semi.done!.body.errors).toMatchObject({ delimiter: ';' });
    expect((await space()).usedBytes).toBe(before);
    // A general file (not a dataset upload) is kept as it is.
    const kept = await send('photo.bin', binary, 'file');
    expect(kept.done!.status).toBe(200);
  });

  it('explains the used space: files, code, datasets, open uploads and the rest', async () => {
    const csv = text('x,y\n1,2\n3,4\n');
    const { done } = await send('parts.csv', csv);
    expect(done!.status).toBe(200);
    const made = await server.call('table/create', { token, body: { fileId: done!.body.data.fileId, name: 'Parts', type: 'business' } });
    expect(made.status).toBe(200);
    await server.call('file/uploadpartinit', { token, body: { name: 'later.csv', size: 1000, purpose: 'dataset' } });
    await server.call('file/uploadFileByContent', { token, body: { files: [{ path: 'reward.py', content: 'def get_reward(data):\n    return 0\n' }] } });
    const s = await space();
    const b = s.breakdown;
    expect(b.uploading).toBe(1000);
    expect(b.code).toBeGreaterThan(0);
    expect(b.datasets).toBeGreaterThan(0);
    // Files: photo.bin (4096) and parts.csv of the tests above.
    expect(b.files).toBe(4096 + csv.length);
    expect(b.files + b.code + b.datasets + b.uploading + b.artefacts).toBe(s.usedBytes);
    expect(b.artefacts).toBe(0);
  });
});
