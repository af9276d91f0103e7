/**
 * The API description served by the server: OpenAPI 3.1 generated from the mounted routes and
 * the domain schemas (every validated call has its request schema; the job contract its reply),
 * and the same as a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('API description on %s', (kind) => {
  let server: TestServer;
  let doc: any;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const res = await server.fetch('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = await res.json();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('describes every mounted call, signed-in ones with the session scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(100);
    for (const p of ['/api/job/get', '/api/job/wait', '/api/job/events', '/api/trainSimulator/create', '/api/modeldeploy/create', '/api/file/uploadOneFile', '/api/decide/{serviceId}']) expect(paths).toContain(p);
    expect(doc.paths['/api/job/get'].post.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/index/signIn'].post.security).toBeUndefined();
    expect(doc.paths['/api/job/events'].get.summary).toMatch(/Server-Sent Events/);
    // Every call that validates a body has its JSON Schema (none failed to convert).
    let bodies = 0;
    for (const methods of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(methods)) {
        const schema = op.requestBody?.content['application/json'].schema;
        if (!schema) continue;
        bodies++;
        expect(Object.keys(schema).length, op.operationId).toBeGreaterThan(0);
      }
    }
    expect(bodies).toBeGreaterThan(80);
  });

  it('carries the domain rules: ids, strict hyperparameters, optional stop conditions and scheme range, the job view', () => {
    const get = doc.paths['/api/job/get'].post;
    expect(get.requestBody.content['application/json'].schema.properties.jobId.pattern).toBe('^[0-9a-f]{32}$');
    const view = get.responses['200'].content['application/json'].schema.properties.data;
    expect(view.required).toEqual(expect.arrayContaining(['jobId', 'state', 'final', 'progress', 'error', 'owner']));
    const train = doc.paths['/api/trainSimulator/create'].post.requestBody.content['application/json'].schema;
    expect(train.required).not.toContain('stopConditions');
    expect(train.properties.hyperparameters.additionalProperties).toBe(false);
    expect(Object.keys(train.properties.hyperparameters.properties)).toEqual(expect.arrayContaining(['epochs', 'hidden', 'lr', 'ensemble']));
    expect(train.properties.stopConditions.properties.duration.properties.days.type).toBe('integer');
    const scheme = doc.paths['/api/scheme/create'].post.requestBody.content['application/json'].schema;
    expect(scheme.required).toEqual(expect.arrayContaining(['solutionId', 'name']));
    expect(scheme.required).not.toContain('startTime');
    const deploy = doc.paths['/api/modeldeploy/create'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(deploy.properties)).toEqual(expect.arrayContaining(['start', 'waitSeconds']));
    expect(doc.components.schemas.ErrorCode.enum).toContain(8036);
  });

  it('serves the same as a page', async () => {
    const res = await server.fetch('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('POST /api/job/wait');
    expect(html).toContain('openapi.json');
    expect(html).not.toContain('<script');
  });
});
