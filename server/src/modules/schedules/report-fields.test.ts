/**
 * Every job kind a schedule runs declares the keys of its report (`JobKind.report`: label in both
 * languages, format), and the job history answers them with each run: what the jobs plugin
 * formats a report from. The refresh and policy-update kinds' own runs are checked in their tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_KIND_NAMES, jobReportFieldSchema } from '@decisio/domain';
import { waitUntil } from '../../jobs/testing';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { undeclaredReportKeys } from './testing';

describe.each(databases)('report fields of the scheduled job kinds on %s', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false }, audit: { flushIntervalMs: 10 } });
    await server.app.startJobs();
    token = await issueToken(server, await createUser(server, { roles: ['admin'] }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('every kind a schedule runs declares its report keys once each, labelled in both languages', () => {
    for (const name of SCHEDULE_KIND_NAMES) {
      const report = server.app.jobKindRegistry.get(name)?.report ?? [];
      expect(report.length, name).toBeGreaterThan(0);
      for (const f of report) expect(jobReportFieldSchema.safeParse(f).success, `${name} ${f.key}`).toBe(true);
      const keys = report.map((f) => f.key);
      expect(new Set(keys).size, name).toBe(keys.length);
    }
  });

  it.each([
    ['uploads.sweep', { olderThanHours: 1 }],
    ['logs.retention', { days: 3650 }],
    ['licences.expiry', {}],
  ] as const)('a run of %s reports only keys its kind declares, and the history answers them with the run', async (name, params) => {
    const saved = await server.call('jobs/saveOrUpdate', { token, body: { name: `Report of ${name}`, cron: '0 3 1 1 *', kind: name, params } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.data.id as string;
    const fired = await server.call('jobs/trigger', { token, body: { id } });
    const declared = server.app.jobKindRegistry.get(name)!.report;
    expect(fired.body.data.reportFields).toEqual(declared);
    let run: any;
    await waitUntil(async () => {
      run = (await server.call('jobs/history', { token, body: { id } })).body.data.rows[0];
      return run?.state === 'successful';
    });
    expect(Object.keys(run.metrics).length).toBeGreaterThan(0);
    expect(run.reportFields).toEqual(declared);
    expect(undeclaredReportKeys(run)).toEqual([]);
  });
});
