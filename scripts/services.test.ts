import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVICES, ensureService, probe, where } from './services.mjs';

/** A local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('npm test services', () => {
  it('reports a service given at an address that does not answer as missing, with the reason, and starts nothing', async () => {
    const port = await closedPort();
    const urls = { mysql: `mysql://root@127.0.0.1:${port}/test`, postgres: `postgres://postgres@127.0.0.1:${port}/test`, redis: `redis://127.0.0.1:${port}` };
    for (const s of SERVICES) {
      const r = await ensureService(s, { [s.variable]: urls[s.id as keyof typeof urls] });
      expect(r).toMatchObject({ id: s.id, url: null, state: 'missing' });
      expect(r.reason).toContain(`no ${s.name} at 127.0.0.1:${port}`);
    }
  });

  it('probes answer with why a server cannot be reached', async () => {
    const port = await closedPort();
    expect(await probe('redis', `redis://127.0.0.1:${port}`)).toMatch(/ECONNREFUSED/);
    expect(await probe('mysql', `mysql://root@127.0.0.1:${port}/test`)).toMatch(/ECONNREFUSED/);
    expect(where('mysql://root:secret@127.0.0.1:3306/test')).toBe('127.0.0.1:3306');
  });
});
