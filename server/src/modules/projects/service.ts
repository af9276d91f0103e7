import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { sharedModule } from './shared-modules';
import {
  AppError,
  type ActivityItem,
  type CollaboratorCandidate,
  type CollaboratorCandidatesRequest,
  type DeleteProjectPermissionsRequest,
  type Page,
  type ProjectItem,
  type ProjectPermissionItem,
  type SaveShareSettingsRequest,
  type ShareSettings,
  type SharedProject,
  activityRequestSchema,
  createProjectPermissionsRequestSchema,
  createProjectRequestSchema,
  editProjectRequestSchema,
  projectListRequestSchema,
  type ShareModule,
  type SharedModuleView,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { onlineEngineVersions } from '../../jobs/engine-versions';
import type { BlobStore } from '../storage/blob-store';
import { assertProjectAccess, deleteRefusal, projectRightOf, type ProjectRight } from './access';
import { deleteWithArtefacts, type DeletedJobs } from './artefacts';
import { recordActivity } from './activity';
import { authorize, type ProjectAction } from './policy';
import { presentActivity, presentPermission, presentProject, presentShareSettings, type ProjectRow } from './presenters';

const RANK: Record<ProjectRight, number> = { view: 1, edit: 2, owner: 3 };

/** '!' as the LIKE escape character: a backslash means different things in MySQL and SQLite. */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
}

/** Projects of a tenant: list, create, edit, delete, favourites, collaboration, share links, activity. */
export class ProjectsService {
  /**
   * With `blobs`, deleting a project also gives back the space of its modelling files and removes
   * them (`./artefacts.ts`); without, they stay on disk, charged. `deletedJobs` hears of the
   * jobs a delete took with it (their TensorBoards end).
   */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly blobs?: BlobStore,
    private readonly deletedJobs?: DeletedJobs,
    /** Tells collaborators that a project was shared with them (the messages module's `notify`). */
    private readonly notifier?: { notify(userId: string, kind: 'projectShared', params: Record<string, string>): Promise<unknown> },
  ) {}

  private get knex(): Knex {
    return this.db.executor();
  }

  private async orgOf(userId: string): Promise<string | null> {
    const row = await this.knex('users').where('id', userId).first('org_id');
    return (row?.org_id as string | null | undefined) ?? null;
  }

  /** Ids of the projects a user owns or collaborates on (deleted ones included), as a subquery. */
  private visibleIds(user: ServerCallUser, orgId: string | null): Knex.QueryBuilder {
    const knex = this.knex;
    return knex('projects')
      .select('projects.id')
      .where('projects.tenant_id', user.tenantId)
      .andWhere((q) => {
        q.where('projects.owner_id', user.id).orWhereIn(
          'projects.id',
          knex('project_permissions')
            .select('project_permissions.project_id')
            .where((p) => {
              p.where({ 'project_permissions.subject_type': 'user', 'project_permissions.subject_id': user.id });
              if (orgId) p.orWhere({ 'project_permissions.subject_type': 'org', 'project_permissions.subject_id': orgId });
            }),
        );
      });
  }

  /** Projects with owner name, the caller's favourite flag and the live solution count. */
  private projectQuery(userId: string): Knex.QueryBuilder {
    const knex = this.knex;
    return knex('projects as p')
      .leftJoin('users as u', 'u.id', 'p.owner_id')
      .leftJoin('project_favourites as f', (j) => {
        j.on('f.project_id', '=', 'p.id').andOn('f.user_id', '=', knex.raw('?', [userId]));
      })
      .whereNull('p.deleted_at')
      .select(
        'p.*',
        knex.raw('coalesce(u.nickname, u.username) as owner_name'),
        knex.raw('case when f.user_id is null then 0 else 1 end as favourite'),
        knex('solutions')
          .count('*')
          .where('solutions.project_id', knex.ref('p.id'))
          .whereNull('solutions.deleted_at')
          .as('solution_count'),
      );
  }

  /** Rights of `user` on several projects at once (owner, or the strongest grant). */
  private async rightsOf(user: ServerCallUser, rows: { id: string; owner_id: string }[]): Promise<Map<string, ProjectRight>> {
    const out = new Map<string, ProjectRight>();
    const others = rows.filter((r) => r.owner_id !== user.id).map((r) => r.id);
    for (const r of rows) if (r.owner_id === user.id) out.set(r.id, 'owner');
    if (others.length === 0) return out;
    const orgId = await this.orgOf(user.id);
    const grants: { project_id: string; permission: string }[] = await this.knex('project_permissions')
      .whereIn('project_id', others)
      .andWhere((q) => {
        q.where({ subject_type: 'user', subject_id: user.id });
        if (orgId) q.orWhere({ subject_type: 'org', subject_id: orgId });
      })
      .select('project_id', 'permission');
    for (const g of grants) {
      const right: ProjectRight = g.permission === 'edit' ? 'edit' : 'view';
      const had = out.get(g.project_id);
      if (!had || RANK[right] > RANK[had]) out.set(g.project_id, right);
    }
    return out;
  }

  /** A page of the caller's projects: favourites first, then the latest change first. */
  async list(user: ServerCallUser, input: z.output<typeof projectListRequestSchema>): Promise<Page<ProjectItem>> {
    const orgId = await this.orgOf(user.id);
    const base = this.projectQuery(user.id)
      .where('p.tenant_id', user.tenantId)
      .whereIn('p.id', this.visibleIds(user, orgId));
    if (input.keyword) base.whereRaw("lower(p.name) like ? escape '!'", [likePattern(input.keyword)]);
    if (input.favourite === true) base.whereNotNull('f.user_id');
    if (input.favourite === false) base.whereNull('f.user_id');
    if (input.scope === 'mine') base.where('p.owner_id', user.id);
    if (input.scope === 'shared') base.whereNot('p.owner_id', user.id);
    const [{ n }] = await base.clone().clearSelect().count({ n: '*' });
    const rows: ProjectRow[] = await base
      .clone()
      .orderByRaw('case when f.user_id is null then 1 else 0 end')
      .orderBy([{ column: 'p.updated_at', order: 'desc' }, { column: 'p.id' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize);
    const rights = await this.rightsOf(user, rows);
    return {
      rows: rows.map((r) => presentProject(r, rights.get(r.id) ?? 'view')),
      total: Number(n),
      page: input.page,
      pageSize: input.pageSize,
    };
  }

  /** One project with the caller's right; checks the right an action needs and the lock. */
  private async load(user: ServerCallUser, projectId: string, action: ProjectAction): Promise<{ row: ProjectRow; right: ProjectRight }> {
    const { right } = await assertProjectAccess(this.knex, user, projectId, 'view');
    const row: ProjectRow | undefined = await this.projectQuery(user.id).where('p.id', projectId).first();
    if (!row) throw new AppError('projectNotFound');
    authorize(right, action, { locked: Boolean(Number(row.locked)) });
    return { row, right };
  }

  async get(user: ServerCallUser, projectId: string): Promise<ProjectItem> {
    const { row, right } = await this.load(user, projectId, 'read');
    return presentProject(row, right);
  }

  /** Project names are unique among the live projects of their owner. */
  private async assertNameFree(tenantId: string, ownerId: string, name: string, exceptId?: string): Promise<void> {
    const q = this.knex('projects').where({ tenant_id: tenantId, owner_id: ownerId }).whereNull('deleted_at').whereRaw('lower(name) = ?', [name.toLowerCase()]);
    if (exceptId) q.whereNot('id', exceptId);
    if (await q.first('id')) throw new AppError('projectNameUsed');
  }

  /**
   * A project's default algorithm image version must be one `atmVersion/getAtmVersionList` lists
   * (an engine version of an online worker): its trainings run only on workers of it.
   */
  private async assertListedVersion(version: string): Promise<void> {
    if (!(await onlineEngineVersions(this.knex)).includes(version)) throw new AppError('paramInvalid', { imageVersion: 'validation.imageVersion' });
  }

  async create(user: ServerCallUser, input: z.output<typeof createProjectRequestSchema>): Promise<ProjectItem> {
    await this.assertNameFree(user.tenantId, user.id, input.name);
    if (input.imageVersion) await this.assertListedVersion(input.imageVersion);
    const now = this.clock.now();
    const id = newId();
    await this.knex('projects').insert({
      id,
      tenant_id: user.tenantId,
      owner_id: user.id,
      name: input.name,
      colour: input.colour,
      industry_template: input.industryTemplate,
      info: input.info,
      image_version: input.imageVersion,
      locked: false,
      created_at: now,
      updated_at: now,
    });
    await recordActivity(this.knex, user, { action: 'project.create', projectId: id, targetName: input.name }, now);
    return this.get(user, id);
  }

  async edit(user: ServerCallUser, input: z.output<typeof editProjectRequestSchema>): Promise<ProjectItem> {
    const { row } = await this.load(user, input.projectId, 'edit');
    if (input.name !== undefined) await this.assertNameFree(row.tenant_id, row.owner_id, input.name, row.id);
    // A version kept as it was is not checked again (its workers may be offline for now).
    if (input.imageVersion && input.imageVersion !== row.image_version) await this.assertListedVersion(input.imageVersion);
    const now = this.clock.now();
    const patch: Record<string, unknown> = { updated_at: now };
    if (input.name !== undefined) patch.name = input.name;
    if (input.colour !== undefined) patch.colour = input.colour;
    if (input.industryTemplate !== undefined) patch.industry_template = input.industryTemplate;
    if (input.info !== undefined) patch.info = input.info || null;
    if (input.imageVersion !== undefined) patch.image_version = input.imageVersion || null;
    await this.knex('projects').where('id', row.id).update(patch);
    await recordActivity(this.knex, user, { action: 'project.edit', projectId: row.id, targetName: input.name ?? row.name }, now);
    return this.get(user, row.id);
  }

  /**
   * Deletes a project for good (the spec has no restore): its row and its solutions' are marked
   * deleted (kept for the activity feed), and the files its modelling work stored are given back
   * to the quota and removed (`./artefacts.ts`; its datasets stay with their creator). Refused
   * while locked or while a delete guard objects. Runs its own transaction: the files go only
   * once the rows and the quota are committed.
   */
  async remove(user: ServerCallUser, projectId: string): Promise<{ projectId: string }> {
    return deleteWithArtefacts(this.db, this.blobs, async () => {
      const { row } = await this.load(user, projectId, 'delete');
      const refusal = await deleteRefusal(this.knex, { projectId });
      if (refusal) throw new AppError(refusal);
      const now = this.clock.now();
      await this.knex('solutions').where('project_id', projectId).whereNull('deleted_at').update({ deleted_at: now, updated_at: now });
      await this.knex('projects').where('id', projectId).update({ deleted_at: now, updated_at: now, share_token: null, share_scope: null, share_modules: null });
      await this.knex('project_favourites').where('project_id', projectId).delete();
      await recordActivity(this.knex, user, { action: 'project.delete', projectId, targetName: row.name }, now);
      return { scope: { projectId }, result: { projectId } };
    }, this.deletedJobs);
  }

  async setFavourite(user: ServerCallUser, projectId: string, favourite: boolean): Promise<{ projectId: string; favourite: boolean }> {
    await this.load(user, projectId, 'read');
    await this.knex('project_favourites').where({ user_id: user.id, project_id: projectId }).delete();
    if (favourite) await this.knex('project_favourites').insert({ user_id: user.id, project_id: projectId, created_at: this.clock.now() });
    return { projectId, favourite };
  }

  /** Grants of a project (any right may read who collaborates). */
  async permissions(user: ServerCallUser, projectId: string): Promise<ProjectPermissionItem[]> {
    await this.load(user, projectId, 'read');
    const knex = this.knex;
    const rows = await knex('project_permissions as pp')
      .leftJoin('users as u', (j) => j.on('pp.subject_type', '=', knex.raw('?', ['user'])).andOn('u.id', '=', 'pp.subject_id'))
      .leftJoin('organisations as o', (j) => j.on('pp.subject_type', '=', knex.raw('?', ['org'])).andOn('o.id', '=', 'pp.subject_id'))
      .where('pp.project_id', projectId)
      .orderBy([{ column: 'pp.created_at' }, { column: 'pp.id' }])
      .select('pp.*', knex.raw('coalesce(u.nickname, u.username, o.name) as subject_name'));
    return rows.map(presentPermission);
  }

  /** Adds or changes grants (owner only); every subject must belong to the tenant and not be the owner. */
  async grant(user: ServerCallUser, input: z.output<typeof createProjectPermissionsRequestSchema>): Promise<ProjectPermissionItem[]> {
    const { row } = await this.load(user, input.projectId, 'collaborate');
    const errors: Record<string, string> = {};
    for (const [i, g] of input.permissions.entries()) {
      const table = g.subjectType === 'user' ? 'users' : 'organisations';
      const found = await this.knex(table).where({ id: g.subjectId, tenant_id: row.tenant_id }).first('id');
      if (!found || (g.subjectType === 'user' && g.subjectId === row.owner_id)) errors[`permissions.${i}.subjectId`] = 'validation.invalid';
    }
    if (Object.keys(errors).length > 0) throw new AppError('paramInvalid', errors);
    const now = this.clock.now();
    for (const g of input.permissions) {
      await this.knex('project_permissions').where({ project_id: row.id, subject_type: g.subjectType, subject_id: g.subjectId }).delete();
      await this.knex('project_permissions').insert({
        id: newId(),
        project_id: row.id,
        tenant_id: row.tenant_id,
        subject_type: g.subjectType,
        subject_id: g.subjectId,
        permission: g.permission,
        granted_by: user.id,
        created_at: now,
      });
    }
    await recordActivity(this.knex, user, { action: 'collaboration.grant', projectId: row.id, targetName: row.name }, now);
    if (this.notifier) {
      const userIds = input.permissions.filter((g) => g.subjectType === 'user').map((g) => g.subjectId);
      const orgIds = input.permissions.filter((g) => g.subjectType === 'org').map((g) => g.subjectId);
      const members: { id: string; org_id: string }[] = orgIds.length > 0 ? await this.knex('users').whereIn('org_id', orgIds).where('tenant_id', row.tenant_id).select('id', 'org_id') : [];
      const permissionOf = new Map(input.permissions.map((g) => [g.subjectId, g.permission]));
      const told = new Map<string, string>(members.map((m) => [m.id, permissionOf.get(m.org_id)!]));
      for (const id of userIds) told.set(id, permissionOf.get(id)!);
      for (const [id, permission] of told) {
        if (id === row.owner_id || id === user.id) continue;
        await this.notifier.notify(id, 'projectShared', { projectId: row.id, projectName: row.name, by: user.username, permission });
      }
    }
    return this.permissions(user, row.id);
  }

  /** Removes the given grants, or every grant when `ids` is absent (owner only). */
  async revoke(user: ServerCallUser, input: DeleteProjectPermissionsRequest): Promise<{ projectId: string; removed: number }> {
    const { row } = await this.load(user, input.projectId, 'collaborate');
    const q = this.knex('project_permissions').where('project_id', row.id);
    if (input.ids) q.whereIn('id', input.ids);
    const removed = await q.delete();
    await recordActivity(this.knex, user, { action: 'collaboration.revoke', projectId: row.id, targetName: row.name }, this.clock.now());
    return { projectId: row.id, removed };
  }

  /** Users and organisations of the tenant the owner may grant to (the owner excluded). */
  async candidates(user: ServerCallUser, input: CollaboratorCandidatesRequest): Promise<CollaboratorCandidate[]> {
    const { row } = await this.load(user, input.projectId, 'collaborate');
    const users = this.knex('users').where({ tenant_id: row.tenant_id, status: 'enabled' }).whereNot('id', row.owner_id);
    const orgs = this.knex('organisations').where({ tenant_id: row.tenant_id });
    if (input.keyword) {
      const like = likePattern(input.keyword);
      users.where((q) => q.whereRaw("lower(username) like ? escape '!'", [like]).orWhereRaw("lower(nickname) like ? escape '!'", [like]));
      orgs.whereRaw("lower(name) like ? escape '!'", [like]);
    }
    const [u, o] = [await users.orderBy('username').limit(20).select('id', 'username', 'nickname'), await orgs.orderBy('name').limit(20).select('id', 'name')];
    return [
      ...u.map((r: { id: string; username: string; nickname: string | null }) => ({ subjectType: 'user' as const, subjectId: r.id, name: r.nickname ? `${r.nickname} (${r.username})` : r.username })),
      ...o.map((r: { id: string; name: string }) => ({ subjectType: 'org' as const, subjectId: r.id, name: r.name })),
    ];
  }

  async shareSettings(user: ServerCallUser, projectId: string): Promise<ShareSettings> {
    const { row } = await this.load(user, projectId, 'read');
    return presentShareSettings(row);
  }

  /** Turns the share link on or changes who may open it and which modules it shows (owner only). */
  async saveShare(user: ServerCallUser, input: SaveShareSettingsRequest): Promise<ShareSettings> {
    const { row } = await this.load(user, input.projectId, 'share');
    const token = row.share_token ?? randomBytes(16).toString('hex');
    const modules = [...new Set(input.modules)];
    await this.knex('projects').where('id', row.id).update({ share_token: token, share_scope: input.scope, share_modules: JSON.stringify(modules) });
    await recordActivity(this.knex, user, { action: 'project.share', projectId: row.id, targetName: row.name }, this.clock.now());
    return { projectId: row.id, token, scope: input.scope, modules };
  }

  /** Turns the share link off; the old link stops working. */
  async removeShare(user: ServerCallUser, projectId: string): Promise<ShareSettings> {
    const { row } = await this.load(user, projectId, 'share');
    await this.knex('projects').where('id', row.id).update({ share_token: null, share_scope: null, share_modules: null });
    await recordActivity(this.knex, user, { action: 'project.unshare', projectId: row.id, targetName: row.name }, this.clock.now());
    return { projectId: row.id, token: null, scope: null, modules: [] };
  }

  /**
   * Opens a share link: a read-only view of the project and its solutions for the chosen
   * modules. Scope `all`: any member of the tenant; `org`: members of the owner's organisation
   * (and anyone who already holds a right on the project).
   */
  async shared(user: ServerCallUser, token: string): Promise<SharedProject> {
    const row: ProjectRow | undefined = await this.projectQuery(user.id).where({ 'p.share_token': token, 'p.tenant_id': user.tenantId }).first();
    if (!row) throw new AppError('projectNotFound');
    if (row.share_scope === 'org') {
      const right = await projectRightOf(this.knex, user, { id: row.id, ownerId: row.owner_id });
      if (!right) {
        const [mine, owners] = [await this.orgOf(user.id), await this.orgOf(row.owner_id)];
        if (!mine || mine !== owners) throw new AppError('authorizationFailed');
      }
    }
    const { favourite: _f, right: _r, ...project } = presentProject(row, 'view');
    return { project: { ...project, right: 'view' }, readOnly: true, modules: presentShareSettings(row).modules, solutions: [] };
  }

  /** One module of a share link, read-only (`shared-modules.ts`); a module the owner did not choose: `userNotPermission`. */
  async sharedModule(user: ServerCallUser, token: string, module: ShareModule): Promise<SharedModuleView> {
    const view = await this.shared(user, token);
    return sharedModule(this.knex, user.tenantId, view.project.projectId, module, view.modules);
  }

  /** Recent activity of the projects the caller owns or collaborates on, newest first. */
  async activity(user: ServerCallUser, input: z.output<typeof activityRequestSchema>): Promise<Page<ActivityItem>> {
    const orgId = await this.orgOf(user.id);
    const base = this.knex('activities').where('tenant_id', user.tenantId).whereIn('project_id', this.visibleIds(user, orgId));
    if (input.projectId) {
      // A project the caller cannot see (another tenant's, or not shared) is not found, not an empty feed.
      const visible = await this.knex('projects').where({ id: input.projectId, tenant_id: user.tenantId }).whereIn('id', this.visibleIds(user, orgId)).first('id');
      if (!visible) throw new AppError('projectNotFound');
      base.where('project_id', input.projectId);
    }
    const [counted] = await base.clone().count({ n: '*' });
    const n = counted?.n ?? 0;
    const rows = await base
      .clone()
      .orderBy([{ column: 'seq', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select('*');
    return { rows: rows.map(presentActivity), total: Number(n), page: input.page, pageSize: input.pageSize };
  }

  /** Marks a project changed (solutions call it so the list shows the latest work first). */
  async touch(projectId: string, at: Date): Promise<void> {
    await this.knex('projects').where('id', projectId).update({ updated_at: at });
  }
}
