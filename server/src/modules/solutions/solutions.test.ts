import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { deleteGuards, type DeleteGuard } from '../projects/access';

describe.each(databases)('solutions on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let ownerToken: string;
  let editorToken: string;
  let viewerToken: string;
  let outsiderToken: string;
  let foreignerToken: string;
  let projectId: string;

  const call = (name: string, token: string, body: Record<string, unknown>) => server.call(`solution/${name}`, { token, body });
  const make = async (name: string, extra: Record<string, unknown> = {}) => {
    const r = await call('create', ownerToken, { projectId, name, dataType: 'data_driven', goalType: 'policy_search', ...extra });
    expect(r.body.code).toBe(0);
    return r.body.data.solutionId as string;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    ownerToken = await issueToken(server, owner);
    const editor = await createUser(server);
    editorToken = await issueToken(server, editor);
    const viewer = await createUser(server);
    viewerToken = await issueToken(server, viewer);
    outsiderToken = await issueToken(server, await createUser(server));
    foreignerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    const p = await server.call('project/createProject', { token: ownerToken, body: { name: 'Solutions', colour: 'blue' } });
    projectId = p.body.data.projectId;
    const g = await server.call('project/createProjectPermissionsList', {
      token: ownerToken,
      body: {
        projectId,
        permissions: [
          { subjectType: 'user', subjectId: editor.id, permission: 'edit' },
          { subjectType: 'user', subjectId: viewer.id, permission: 'view' },
        ],
      },
    });
    expect(g.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates solutions with their types, within the name limit, unique per project', async () => {
    const r = await call('create', ownerToken, { projectId, name: ' Baseline ', dataType: 'knowledge_mixin', goalType: 'parameter_tuning', description: 'first' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ projectId, name: 'Baseline', dataType: 'knowledge_mixin', goalType: 'parameter_tuning', description: 'first', pinned: false, creatorId: owner.id, copiedFrom: null });
    const max = await call('create', editorToken, { projectId, name: 'n'.repeat(50), dataType: 'data_driven', goalType: 'policy_search' });
    expect(max.status).toBe(200);
    const bad = await call('create', ownerToken, { projectId, name: 'n'.repeat(51), dataType: 'rules', goalType: 'magic', description: 'd'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(['dataType', 'description', 'goalType', 'name']);
    const dup = await call('create', ownerToken, { projectId, name: 'BASELINE', dataType: 'data_driven', goalType: 'policy_search' });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe(ErrorCode.solutionNameUsed);
    const project = await server.call('project/getProject', { token: ownerToken, body: { projectId } });
    expect(project.body.data.solutionCount).toBe(2);
  });

  it('refuses changes without an edit right and hides the project from others', async () => {
    const viewer = await call('create', viewerToken, { projectId, name: 'Nope', dataType: 'data_driven', goalType: 'policy_search' });
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe(ErrorCode.projectNoRight);
    for (const token of [outsiderToken, foreignerToken]) {
      const r = await call('create', token, { projectId, name: 'Nope', dataType: 'data_driven', goalType: 'policy_search' });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(ErrorCode.projectNotFound);
      const list = await call('getSolutionList', token, { projectId });
      expect(list.status).toBe(404);
    }
    const id = await make('Guarded');
    expect((await call('get', viewerToken, { solutionId: id })).status).toBe(200);
    for (const [name, body] of [
      ['edit', { solutionId: id, name: 'x' }],
      ['copy', { solutionId: id }],
      ['pin', { solutionId: id, pinned: true }],
      ['delete', { solutionId: id, confirm: 'I am sure' }],
    ] as const) {
      expect((await call(name, viewerToken, body)).status).toBe(403);
      expect((await call(name, foreignerToken, body)).status).toBe(404);
    }
    expect((await call('get', outsiderToken, { solutionId: id })).status).toBe(404);
    expect((await server.call('solution/get', { body: { solutionId: id } })).status).toBe(401);
    const unknown = await call('get', ownerToken, { solutionId: newId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(ErrorCode.solutionNotFound);
  });

  it('edits, copies and pins; pinned solutions come first', async () => {
    const a = await make('Alpha');
    const b = await make('Beta');
    const edited = await call('edit', editorToken, { solutionId: a, name: 'Alpha 2', description: 'changed' });
    expect(edited.body.data).toMatchObject({ name: 'Alpha 2', description: 'changed' });
    expect((await call('edit', ownerToken, { solutionId: a, name: 'Beta' })).body.code).toBe(ErrorCode.solutionNameUsed);
    expect((await call('edit', ownerToken, { solutionId: a, name: 'a'.repeat(51) })).status).toBe(400);

    const copy1 = await call('copy', editorToken, { solutionId: a });
    expect(copy1.body.data).toMatchObject({ name: 'Alpha 2 (copy)', description: 'changed', copiedFrom: a, dataType: 'data_driven', pinned: false });
    const copy2 = await call('copy', editorToken, { solutionId: a });
    expect(copy2.body.data.name).toBe('Alpha 2 (copy 2)');
    const named = await call('copy', ownerToken, { solutionId: a, name: 'Gamma' });
    expect(named.body.data.name).toBe('Gamma');
    expect((await call('copy', ownerToken, { solutionId: a, name: 'Gamma' })).body.code).toBe(ErrorCode.solutionNameUsed);
    const long = await make('L'.repeat(50));
    const longCopy = await call('copy', ownerToken, { solutionId: long });
    expect(longCopy.body.data.name).toBe('L'.repeat(43) + ' (copy)');

    expect((await call('pin', editorToken, { solutionId: b, pinned: true })).body.data.pinned).toBe(true);
    const list = await call('getSolutionList', viewerToken, { projectId });
    expect(list.status).toBe(200);
    expect(list.body.data[0].solutionId).toBe(b);
    const found = await call('getSolutionList', ownerToken, { projectId, keyword: 'alpha 2' });
    expect(found.body.data.map((s: { name: string }) => s.name).sort()).toEqual(['Alpha 2', 'Alpha 2 (copy 2)', 'Alpha 2 (copy)']);
    expect((await call('pin', ownerToken, { solutionId: b, pinned: false })).body.data.pinned).toBe(false);

    const feed = await server.call('message/getActivity', { token: viewerToken, body: { projectId, pageSize: 3 } });
    expect(feed.body.data.rows.map((r: { action: string }) => r.action)).toEqual(['solution.unpin', 'solution.pin', 'solution.copy']);
  });

  it('deletes only with the "I am sure" confirmation, not while work runs or the project is locked', async () => {
    const id = await make('To delete');
    const missing = await call('delete', ownerToken, { solutionId: id });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty('confirm');
    const wrong = await call('delete', ownerToken, { solutionId: id, confirm: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toHaveProperty('confirm');

    const guard: DeleteGuard = async (_knex, target) => (target.solutionId === id ? 'projectHasTraining' : null);
    deleteGuards.push(guard);
    try {
      const busy = await call('delete', ownerToken, { solutionId: id, confirm: 'I am sure' });
      expect(busy.status).toBe(400);
      expect(busy.body.code).toBe(ErrorCode.projectHasTraining);
    } finally {
      deleteGuards.splice(deleteGuards.indexOf(guard), 1);
    }

    await server.app.db.knex('projects').where('id', projectId).update({ locked: true });
    try {
      const locked = await call('delete', editorToken, { solutionId: id, confirm: '我确定' });
      expect(locked.body.code).toBe(ErrorCode.projectLocked);
      expect((await call('create', ownerToken, { projectId, name: 'While locked', dataType: 'data_driven', goalType: 'policy_search' })).body.code).toBe(ErrorCode.projectLocked);
      expect((await call('getSolutionList', viewerToken, { projectId })).status).toBe(200);
    } finally {
      await server.app.db.knex('projects').where('id', projectId).update({ locked: false });
    }

    const done = await call('delete', editorToken, { solutionId: id, confirm: '我确定' });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ solutionId: id });
    const gone = await call('get', ownerToken, { solutionId: id });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(ErrorCode.solutionNotFound);
    // The name is free again.
    expect((await call('create', ownerToken, { projectId, name: 'To delete', dataType: 'data_driven', goalType: 'policy_search' })).status).toBe(200);
  });

  it('deleting the project takes its solutions with it', async () => {
    const p = await server.call('project/createProject', { token: ownerToken, body: { name: 'Short lived', colour: 'green' } });
    const pid = p.body.data.projectId;
    const s = await call('create', ownerToken, { projectId: pid, name: 'Inside', dataType: 'data_driven', goalType: 'policy_search' });
    expect((await server.call('project/deleteProject', { token: ownerToken, body: { projectId: pid } })).status).toBe(200);
    const gone = await call('get', ownerToken, { solutionId: s.body.data.solutionId });
    expect(gone.status).toBe(404);
  });
});
