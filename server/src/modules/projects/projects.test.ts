import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { chargeStorage } from '../storage/quota';
import { deleteGuards, type DeleteGuard } from './access';

describe.each(databases)('projects on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let ownerToken: string;
  let mate: TestUser;
  let mateToken: string;
  let outsider: TestUser;
  let outsiderToken: string;
  let foreigner: TestUser;
  let foreignerToken: string;
  let orgId: string;

  const create = (token: string, body: Record<string, unknown>) => server.call('project/createProject', { token, body });
  const newProject = async (name: string, token = ownerToken) => {
    const r = await create(token, { name, colour: 'ocean' });
    expect(r.body.code).toBe(0);
    return r.body.data.projectId as string;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    const knex = server.app.db.knex;
    orgId = newId();
    const now = new Date();
    await knex('organisations').insert({ id: orgId, tenant_id: (await knex('tenants').first('id')).id, parent_id: null, name: 'Research', sort: 0, created_at: now, updated_at: now });
    owner = await createUser(server);
    ownerToken = await issueToken(server, owner);
    mate = await createUser(server);
    mateToken = await issueToken(server, mate);
    outsider = await createUser(server);
    outsiderToken = await issueToken(server, outsider);
    const otherTenant = await createTenant(server);
    foreigner = await createUser(server, { tenantId: otherTenant });
    foreignerToken = await issueToken(server, foreigner);
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('project/createProject', () => {
    it('creates a project owned by the caller and records the activity', async () => {
      const r = await create(ownerToken, { name: '  Pricing  ', colour: 'volcano', industryTemplate: 'coupon', info: 'Coupon pricing' });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        name: 'Pricing',
        colour: 'volcano',
        industryTemplate: 'coupon',
        info: 'Coupon pricing',
        ownerId: owner.id,
        right: 'owner',
        favourite: false,
        locked: false,
        solutionCount: 0,
      });
      expect(r.body.data.projectId).toMatch(/^[0-9a-f]{32}$/);
      const feed = await server.call('message/getActivity', { token: ownerToken, body: { projectId: r.body.data.projectId } });
      expect(feed.body.data.rows.map((a: { action: string }) => a.action)).toEqual(['project.create']);
    });

    it('enforces the limits: name 1-20, info 200, the seven colours, known templates', async () => {
      const ok20 = await create(ownerToken, { name: 'x'.repeat(20), colour: 'purple', info: 'i'.repeat(200) });
      expect(ok20.status).toBe(200);
      const bad = await create(ownerToken, { name: 'x'.repeat(21), colour: 'pink', info: 'i'.repeat(201), industryTemplate: 'steel' });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(bad.body.errors!).sort()).toEqual(['colour', 'industryTemplate', 'info', 'name']);
      const blank = await server.call('project/createProject', { token: ownerToken, body: { name: '   ', colour: 'gold' }, headers: { 'Accept-Language': 'en-US' } });
      expect(blank.status).toBe(400);
      expect(blank.body.errors).toEqual({ name: 'This field is required' });
      const long = await server.call('project/createProject', { token: ownerToken, body: { name: 'x'.repeat(21), colour: 'gold' }, headers: { 'Accept-Language': 'en-US' } });
      expect(long.body.errors).toEqual({ name: 'Too long: at most 20 characters' });
      for (const colour of ['ocean', 'volcano', 'gold', 'green', 'cyan', 'blue', 'purple']) {
        expect((await create(ownerToken, { name: `c-${colour}`, colour })).status).toBe(200);
      }
    });

    it('refuses a name the owner already uses (any case), but not another user of it', async () => {
      await newProject('Same name');
      const again = await create(ownerToken, { name: 'SAME NAME', colour: 'gold' });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe(ErrorCode.projectNameUsed);
      expect((await create(mateToken, { name: 'Same name', colour: 'gold' })).status).toBe(200);
    });

    it('answers 401 without a token', async () => {
      const r = await server.call('project/createProject', { body: { name: 'a', colour: 'gold' } });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(ErrorCode.unauthorized);
    });
  });

  describe('list, get and favourites', () => {
    it('lists own and shared projects only, favourites first, with keyword and scope filters', async () => {
      const a = await newProject('List alpha');
      const b = await newProject('List beta');
      const foreign = await newProject('List alpha', foreignerToken);
      const mates = await newProject('List mate', mateToken);
      expect((await server.call('project/createProjectPermissionsList', { token: mateToken, body: { projectId: mates, permissions: [{ subjectType: 'user', subjectId: owner.id, permission: 'view' }] } })).status).toBe(200);

      const fav = await server.call('project/setFavourite', { token: ownerToken, body: { projectId: a, favourite: true } });
      expect(fav.body.data).toEqual({ projectId: a, favourite: true });

      const all = await server.call('project/getProjectList?keyword=list&pageSize=100', { method: 'GET', token: ownerToken });
      expect(all.status).toBe(200);
      const ids = all.body.data.rows.map((r: { projectId: string }) => r.projectId);
      expect(ids[0]).toBe(a);
      expect(ids.sort()).toEqual([a, b, mates].sort());
      expect(ids).not.toContain(foreign);
      const shared = all.body.data.rows.find((r: { projectId: string }) => r.projectId === mates);
      expect(shared).toMatchObject({ right: 'view', ownerId: mate.id, favourite: false });

      const mine = await server.call('project/getProjectList', { token: ownerToken, body: { keyword: 'list', scope: 'mine' } });
      expect(mine.body.data.total).toBe(2);
      const sharedOnly = await server.call('project/getProjectList', { token: ownerToken, body: { keyword: 'list', scope: 'shared' } });
      expect(sharedOnly.body.data.rows.map((r: { projectId: string }) => r.projectId)).toEqual([mates]);
      const favs = await server.call('project/getProjectList', { token: ownerToken, body: { favourite: true } });
      expect(favs.body.data.rows.map((r: { projectId: string }) => r.projectId)).toEqual([a]);
      const paged = await server.call('project/getProjectList', { token: ownerToken, body: { keyword: 'list', page: 2, pageSize: 2 } });
      expect(paged.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(paged.body.data.rows).toHaveLength(1);
      const wildcard = await server.call('project/getProjectList', { token: ownerToken, body: { keyword: '%' } });
      expect(wildcard.body.data.total).toBe(0);

      const unfav = await server.call('project/setFavourite', { token: ownerToken, body: { projectId: a, favourite: false } });
      expect(unfav.body.data.favourite).toBe(false);
      expect((await server.call('project/getProject', { token: ownerToken, body: { projectId: a } })).body.data.favourite).toBe(false);
    });

    it('hides projects of other users and tenants (404) and checks ids (400)', async () => {
      const p = await newProject('Hidden');
      for (const token of [outsiderToken, foreignerToken]) {
        const r = await server.call('project/getProject', { token, body: { projectId: p } });
        expect(r.status).toBe(404);
        expect(r.body.code).toBe(ErrorCode.projectNotFound);
        expect((await server.call('project/setFavourite', { token, body: { projectId: p, favourite: true } })).status).toBe(404);
      }
      const bad = await server.call('project/getProject', { token: ownerToken, body: { projectId: 'P-1' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('projectId');
      expect((await server.call('project/getProject', { body: { projectId: p } })).status).toBe(401);
      const badPage = await server.call('project/getProjectList?pageSize=1000', { method: 'GET', token: ownerToken });
      expect(badPage.status).toBe(400);
    });
  });

  describe('project/editProject and project/deleteProject', () => {
    it('lets the owner and edit collaborators edit, not view collaborators; a locked project refuses', async () => {
      const p = await newProject('Editable');
      await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: { projectId: p, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'view' }] },
      });
      const denied = await server.call('project/editProject', { token: mateToken, body: { projectId: p, info: 'hi' } });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.projectNoRight);
      await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: { projectId: p, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'edit' }] },
      });
      const edited = await server.call('project/editProject', { token: mateToken, body: { projectId: p, info: 'hi', colour: 'cyan' } });
      expect(edited.status).toBe(200);
      expect(edited.body.data).toMatchObject({ name: 'Editable', info: 'hi', colour: 'cyan', right: 'edit' });
      const renamed = await server.call('project/editProject', { token: ownerToken, body: { projectId: p, name: 'Edited', info: null } });
      expect(renamed.body.data).toMatchObject({ name: 'Edited', info: null });
      const tooLong = await server.call('project/editProject', { token: ownerToken, body: { projectId: p, name: 'n'.repeat(21), info: 'i'.repeat(201) } });
      expect(tooLong.status).toBe(400);
      expect(Object.keys(tooLong.body.errors!).sort()).toEqual(['info', 'name']);
      await newProject('Taken');
      const taken = await server.call('project/editProject', { token: ownerToken, body: { projectId: p, name: 'taken' } });
      expect(taken.body.code).toBe(ErrorCode.projectNameUsed);
      expect((await server.call('project/editProject', { token: outsiderToken, body: { projectId: p, info: 'x' } })).status).toBe(404);

      await server.app.db.knex('projects').where('id', p).update({ locked: true });
      const locked = await server.call('project/editProject', { token: ownerToken, body: { projectId: p, info: 'x' } });
      expect(locked.status).toBe(400);
      expect(locked.body.code).toBe(ErrorCode.projectLocked);
      const lockedDelete = await server.call('project/deleteProject', { token: ownerToken, body: { projectId: p } });
      expect(lockedDelete.body.code).toBe(ErrorCode.projectLocked);
      expect((await server.call('project/getProject', { token: ownerToken, body: { projectId: p } })).body.data.locked).toBe(true);
    });

    it('deletes for the owner only; delete guards refuse while work runs', async () => {
      const p = await newProject('Doomed');
      await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: { projectId: p, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'edit' }] },
      });
      const byMate = await server.call('project/deleteProject', { token: mateToken, body: { projectId: p } });
      expect(byMate.status).toBe(403);
      expect(byMate.body.code).toBe(ErrorCode.projectNoRight);
      expect((await server.call('project/deleteProject', { token: foreignerToken, body: { projectId: p } })).status).toBe(404);

      const busy = new Set([p]);
      const guard: DeleteGuard = async (_knex, target) => (busy.has(target.projectId) ? 'projectHasTraining' : null);
      deleteGuards.push(guard);
      try {
        const refused = await server.call('project/deleteProject', { token: ownerToken, body: { projectId: p } });
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe(ErrorCode.projectHasTraining);
        busy.delete(p);
        const removed = await server.call('project/deleteProject', { token: ownerToken, body: { projectId: p } });
        expect(removed.status).toBe(200);
        expect(removed.body.data).toEqual({ projectId: p });
      } finally {
        deleteGuards.splice(deleteGuards.indexOf(guard), 1);
      }
      const gone = await server.call('project/getProject', { token: ownerToken, body: { projectId: p } });
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe(ErrorCode.projectNotFound);
      expect((await server.call('project/getProject', { token: mateToken, body: { projectId: p } })).status).toBe(404);
      // The name is free again.
      expect((await create(ownerToken, { name: 'Doomed', colour: 'gold' })).status).toBe(200);
      const feed = await server.call('message/getActivity', { token: mateToken, body: { projectId: p } });
      expect(feed.body.data.rows[0]).toMatchObject({ action: 'project.delete', targetName: 'Doomed', userId: owner.id });
    });
  });

  describe('deleting a project for good', () => {
    it('gives back the space of its modelling files and removes them; its datasets and other projects keep theirs', async () => {
      const knex = server.app.db.knex;
      const blobs = server.app.blobs;
      const user = await createUser(server);
      const token = await issueToken(server, user);
      const owner = { tenantId: user.tenantId, userId: user.id };
      const used = async () => (await server.call('file/getFreeSpace', { token })).body.data.usedBytes as number;
      const now = new Date();
      /** Stores a file and charges it, as the modelling jobs do. */
      const store = async (key: string, bytes: number) => {
        await blobs.put(key, Buffer.alloc(bytes, 1));
        await chargeStorage(knex, owner, bytes);
      };
      /** A project with a processed scheme, a trained environment (run twice), its TensorBoard folders, and a dataset row. */
      const seeded = async (name: string, solutionId = newId(), inProject?: string) => {
        const projectId = inProject ?? (await newProject(name, token));
        const scoped = { tenant_id: user.tenantId, project_id: projectId, solution_id: solutionId, creator_id: user.id, created_at: now, updated_at: now };
        const schemeId = newId();
        const processed = `u/${user.id}/modelling/schemes/${schemeId}/processed.json`;
        await store(processed, 1000);
        await knex('schemes').insert({ ...scoped, id: schemeId, name: 's', period: 'day', start_time: now, end_time: now, data: null, process_state: 'completed', process_job_id: null, processed_key: processed, rows: 1 });
        const simId = newId();
        const artefact = `u/${user.id}/modelling/simulators/${simId}`;
        await store(`${artefact}/venv.json`, 3000);
        const [first, second] = [newId(), newId()];
        for (const id of [first, second]) {
          await knex('jobs').insert({ id, tenant_id: user.tenantId, user_id: user.id, kind: 'modelling.environment', name: 'env', state: 'successful', payload: '{}', created_at: now, updated_at: now });
          await store(`u/${user.id}/modelling/tensorboard/${id}/run/events.out.tfevents.1.decisio`, 500);
        }
        await knex('simulators').insert({ ...scoped, id: simId, name: 'env', algorithm: 'bc', job_id: second, state: 'successful', config: '{}', scheme_id: schemeId, score: null, artifact_key: artefact });
        await knex('training_runs').insert([
          { id: newId(), tenant_id: user.tenantId, record_table: 'simulators', record_id: simId, job_id: first, reason: 'create', created_at: now },
          { id: newId(), tenant_id: user.tenantId, record_table: 'simulators', record_id: simId, job_id: second, reason: 'update', created_at: now },
        ]);
        return { projectId, keys: [processed, `${artefact}/venv.json`, ...[first, second].map((id) => `u/${user.id}/modelling/tensorboard/${id}/run/events.out.tfevents.1.decisio`)] };
      };
      const doomed = await seeded('Purged');
      const kept = await seeded('Kept');
      // A dataset of the doomed project: its creator's, listed and charged until deleted there.
      const datasetKey = `u/${user.id}/ds/${newId()}.parquet`;
      await store(datasetKey, 700);
      await knex('datasets').insert({ id: newId(), tenant_id: user.tenantId, user_id: user.id, project_id: doomed.projectId, name: 'data', type: 'business', file_type: 'csv', file_name: 'd.csv', delimiter: ',', source_file_id: null, blob_key: datasetKey, amount: 1, size: 700, columnar_size: 700, columns: '[]', status: 'ready', created_at: now, updated_at: now });
      const before = await used();
      expect(before).toBe(2 * (1000 + 3000 + 2 * 500) + 700);

      // Through the call, as the server wires it.
      expect((await server.call('project/deleteProject', { token, body: { projectId: doomed.projectId } })).status).toBe(200);
      expect(await used()).toBe(before - (1000 + 3000 + 2 * 500));
      for (const key of doomed.keys) expect(await blobs.stat(key)).toBeNull();
      for (const key of [...kept.keys, datasetKey]) expect(await blobs.stat(key)).not.toBeNull();
      expect((await server.call('project/getProject', { token, body: { projectId: doomed.projectId } })).status).toBe(404);
      expect((await server.call('table/list', { token, body: { page: 1, pageSize: 10 } })).body.data.total).toBe(1);

      // Deleting one solution gives back its files only; the project's other solution keeps its own.
      const solution = async (name: string) =>
        (await server.call('solution/create', { token, body: { projectId: kept.projectId, name, dataType: 'data_driven', goalType: 'policy_search' } })).body.data.solutionId as string;
      const [goneId, stayId] = [await solution('Gone'), await solution('Stays')];
      const gone = await seeded('', goneId, kept.projectId);
      const stays = await seeded('', stayId, kept.projectId);
      const beforeSolution = await used();
      const refused = await server.call('solution/delete', { token, body: { solutionId: goneId, confirm: 'not sure' } });
      expect(refused.status).toBe(400);
      expect(await used()).toBe(beforeSolution);
      expect((await server.call('solution/delete', { token, body: { solutionId: goneId, confirm: 'I am sure' } })).status).toBe(200);
      expect(await used()).toBe(beforeSolution - (1000 + 3000 + 2 * 500));
      for (const key of gone.keys) expect(await blobs.stat(key)).toBeNull();
      for (const key of [...stays.keys, ...kept.keys]) expect(await blobs.stat(key)).not.toBeNull();
    });
  });

  describe('collaboration', () => {
    it('grants edit or view to users and organisations, lists and revokes them', async () => {
      const p = await newProject('Team');
      await server.app.db.knex('users').where('id', outsider.id).update({ org_id: orgId });

      const empty = await server.call('project/createProjectPermissionsList', { token: ownerToken, body: { projectId: p, permissions: [] } });
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toHaveProperty('permissions');

      const granted = await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: {
          projectId: p,
          permissions: [
            { subjectType: 'user', subjectId: mate.id, permission: 'view' },
            { subjectType: 'org', subjectId: orgId, permission: 'edit' },
          ],
        },
      });
      expect(granted.status).toBe(200);
      expect(granted.body.data).toHaveLength(2);
      expect(granted.body.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ subjectType: 'user', subjectId: mate.id, permission: 'view', subjectName: mate.username }),
          expect.objectContaining({ subjectType: 'org', subjectId: orgId, permission: 'edit', subjectName: 'Research' }),
        ]),
      );
      // A member of the organisation holds edit through it.
      const viaOrg = await server.call('project/getProject', { token: outsiderToken, body: { projectId: p } });
      expect(viaOrg.body.data.right).toBe('edit');
      expect((await server.call('project/getProject', { token: mateToken, body: { projectId: p } })).body.data.right).toBe('view');

      // Only the owner manages collaboration: the "no right to collaborate" refusal.
      const noRight = await server.call('project/createProjectPermissionsList', {
        token: outsiderToken,
        body: { projectId: p, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'edit' }] },
      });
      expect(noRight.status).toBe(403);
      expect(noRight.body.code).toBe(ErrorCode.projectNoRight);
      expect((await server.call('project/getCollaboratorCandidates', { token: mateToken, body: { projectId: p } })).status).toBe(403);

      // Subjects must be of the tenant, and not the owner.
      const strangers = await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: {
          projectId: p,
          permissions: [
            { subjectType: 'user', subjectId: foreigner.id, permission: 'view' },
            { subjectType: 'user', subjectId: owner.id, permission: 'view' },
            { subjectType: 'org', subjectId: newId(), permission: 'view' },
          ],
        },
      });
      expect(strangers.status).toBe(400);
      expect(Object.keys(strangers.body.errors!).sort()).toEqual(['permissions.0.subjectId', 'permissions.1.subjectId', 'permissions.2.subjectId']);
      const badRight = await server.call('project/createProjectPermissionsList', {
        token: ownerToken,
        body: { projectId: p, permissions: [{ subjectType: 'role', subjectId: mate.id, permission: 'owner' }] },
      });
      expect(Object.keys(badRight.body.errors!).sort()).toEqual(['permissions.0.permission', 'permissions.0.subjectType']);

      const candidates = await server.call('project/getCollaboratorCandidates', { token: ownerToken, body: { projectId: p, keyword: mate.username } });
      expect(candidates.body.data).toEqual([{ subjectType: 'user', subjectId: mate.id, name: mate.username }]);
      const orgs = await server.call('project/getCollaboratorCandidates', { token: ownerToken, body: { projectId: p, keyword: 'resea' } });
      expect(orgs.body.data).toEqual([{ subjectType: 'org', subjectId: orgId, name: 'Research' }]);

      const listed = await server.call('project/getProjectPermissionsList', { token: mateToken, body: { projectId: p } });
      expect(listed.body.data).toHaveLength(2);
      expect((await server.call('project/getProjectPermissionsList', { token: foreignerToken, body: { projectId: p } })).status).toBe(404);

      const orgGrant = listed.body.data.find((g: { subjectType: string }) => g.subjectType === 'org');
      const revoked = await server.call('project/deleteProjectPermissionsByProjectId', { token: ownerToken, body: { projectId: p, ids: [orgGrant.id] } });
      expect(revoked.body.data).toEqual({ projectId: p, removed: 1 });
      expect((await server.call('project/getProject', { token: outsiderToken, body: { projectId: p } })).status).toBe(404);
      const byMate = await server.call('project/deleteProjectPermissionsByProjectId', { token: mateToken, body: { projectId: p } });
      expect(byMate.status).toBe(403);
      const all = await server.call('project/deleteProjectPermissionsByProjectId', { token: ownerToken, body: { projectId: p } });
      expect(all.body.data.removed).toBe(1);
      expect((await server.call('project/getProject', { token: mateToken, body: { projectId: p } })).status).toBe(404);
      await server.app.db.knex('users').where('id', outsider.id).update({ org_id: null });
    });
  });

  describe('share links', () => {
    it('opens a read-only view of the chosen modules for tenant members; organisation scope narrows it', async () => {
      const p = await newProject('Shared');
      const sol = await server.call('solution/create', { token: ownerToken, body: { projectId: p, name: 'S1', dataType: 'data_driven', goalType: 'policy_search' } });
      expect(sol.status).toBe(200);

      const none = await server.call('project/getShareSettings', { token: ownerToken, body: { projectId: p } });
      expect(none.body.data).toEqual({ projectId: p, token: null, scope: null, modules: [] });
      const emptyModules = await server.call('project/saveShareSettings', { token: ownerToken, body: { projectId: p, scope: 'all', modules: [] } });
      expect(emptyModules.status).toBe(400);
      const badModule = await server.call('project/saveShareSettings', { token: ownerToken, body: { projectId: p, scope: 'everyone', modules: ['secrets'] } });
      expect(Object.keys(badModule.body.errors!).sort()).toEqual(['modules.0', 'scope']);
      expect((await server.call('project/saveShareSettings', { token: mateToken, body: { projectId: p, scope: 'all', modules: ['policy'] } })).status).toBe(404);

      const saved = await server.call('project/saveShareSettings', { token: ownerToken, body: { projectId: p, scope: 'all', modules: ['workbench', 'policy', 'policy'] } });
      expect(saved.status).toBe(200);
      const token = saved.body.data.token as string;
      expect(token).toMatch(/^[0-9a-f]{32}$/);
      expect(saved.body.data).toMatchObject({ scope: 'all', modules: ['workbench', 'policy'] });

      const view = await server.call('project/getSharedProject', { token: outsiderToken, body: { token } });
      expect(view.status).toBe(200);
      expect(view.body.data).toMatchObject({ readOnly: true, modules: ['workbench', 'policy'], project: { projectId: p, name: 'Shared', right: 'view' } });
      expect(view.body.data.solutions.map((s: { name: string }) => s.name)).toEqual(['S1']);
      // Read-only: the link gives no right on the project itself.
      const edit = await server.call('project/editProject', { token: outsiderToken, body: { projectId: p, info: 'vandal' } });
      expect(edit.status).toBe(404);
      const solEdit = await server.call('solution/edit', { token: outsiderToken, body: { solutionId: sol.body.data.solutionId, name: 'vandal' } });
      expect(solEdit.status).toBe(404);
      // Other tenants never see it.
      expect((await server.call('project/getSharedProject', { token: foreignerToken, body: { token } })).status).toBe(404);
      expect((await server.call('project/getSharedProject', { body: { token } })).status).toBe(401);

      // Organisation scope: only members of the owner's organisation (and collaborators).
      await server.app.db.knex('users').where('id', owner.id).update({ org_id: orgId });
      const narrowed = await server.call('project/saveShareSettings', { token: ownerToken, body: { projectId: p, scope: 'org', modules: ['report'] } });
      expect(narrowed.body.data.token).toBe(token);
      const refused = await server.call('project/getSharedProject', { token: outsiderToken, body: { token } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(ErrorCode.authorizationFailed);
      await server.app.db.knex('users').where('id', outsider.id).update({ org_id: orgId });
      expect((await server.call('project/getSharedProject', { token: outsiderToken, body: { token } })).body.data.modules).toEqual(['report']);
      await server.app.db.knex('users').whereIn('id', [owner.id, outsider.id]).update({ org_id: null });

      const off = await server.call('project/deleteShareSettings', { token: ownerToken, body: { projectId: p } });
      expect(off.body.data.token).toBeNull();
      expect((await server.call('project/getSharedProject', { token: outsiderToken, body: { token } })).status).toBe(404);
      expect((await server.call('project/getSharedProject', { token: outsiderToken, body: { token: 'nope' } })).status).toBe(400);
    });
  });

  describe('message/getActivity', () => {
    it('shows the activity of visible projects only, newest first', async () => {
      const p = await newProject('Feed');
      await server.call('project/editProject', { token: ownerToken, body: { projectId: p, info: 'changed' } });
      await server.call('solution/create', { token: ownerToken, body: { projectId: p, name: 'Plan', dataType: 'knowledge_mixin', goalType: 'parameter_tuning' } });
      const mine = await server.call('message/getActivity?pageSize=3', { method: 'GET', token: ownerToken });
      expect(mine.status).toBe(200);
      expect(mine.body.data.rows.map((a: { action: string }) => a.action)).toEqual(['solution.create', 'project.edit', 'project.create']);
      expect(mine.body.data.rows[0]).toMatchObject({ projectId: p, targetName: 'Plan', userId: owner.id, username: owner.username });
      // A project the caller cannot see is not found (not an empty feed that confirms it exists).
      const forOutsider = await server.call('message/getActivity', { token: outsiderToken, body: { projectId: p } });
      expect(forOutsider.status).toBe(404);
      expect(forOutsider.body.code).toBe(ErrorCode.projectNotFound);
      const forForeigner = await server.call('message/getActivity', { token: foreignerToken, body: {} });
      expect(forForeigner.body.data.rows.every((a: { projectId: string }) => a.projectId !== p)).toBe(true);
      expect((await server.call('message/getActivity', { body: {} })).status).toBe(401);
      expect((await server.call('message/getActivity', { token: ownerToken, body: { projectId: 'x' } })).status).toBe(400);
    });
  });
});
