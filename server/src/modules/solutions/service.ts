import type { Knex } from 'knex';
import {
  AppError,
  LIMITS,
  type SolutionItem,
  type copySolutionRequestSchema,
  type createSolutionRequestSchema,
  type editSolutionRequestSchema,
  type solutionListRequestSchema,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { BlobStore } from '../storage/blob-store';
import { assertProjectAccess, assertSolutionAccess, deleteRefusal, type ProjectRef } from '../projects/access';
import { deleteWithArtefacts, type DeletedJobs } from '../projects/artefacts';
import { recordActivity } from '../projects/activity';
import { likePattern } from '../projects/service';
import { copySolutionContent, copyTrainedModels } from './copy-content';
import { presentSolution, type SolutionRow } from './presenters';

/**
 * Solutions of a project: list, get, create, edit, copy, delete (with the "I am sure"
 * confirmation, checked by the schema), pin. Reading needs a view right on the project, every
 * change an edit right and an unlocked project.
 */
export class SolutionsService {
  /**
   * With `blobs`, deleting a solution also gives back the space of its modelling files and
   * removes them (`../projects/artefacts.ts`), as deleting a project does; `deletedJobs` hears
   * of the jobs a delete took with it (their TensorBoards end).
   */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly blobs?: BlobStore,
    private readonly deletedJobs?: DeletedJobs,
  ) {}

  private get knex(): Knex {
    return this.db.executor();
  }

  private query(): Knex.QueryBuilder {
    return this.knex('solutions as s')
      .leftJoin('users as u', 'u.id', 's.creator_id')
      .whereNull('s.deleted_at')
      .select('s.*', this.knex.raw('coalesce(u.nickname, u.username) as creator_name'));
  }

  private async assertUnlocked(projectId: string): Promise<void> {
    const row = await this.knex('projects').where('id', projectId).first('locked');
    if (row && Boolean(Number(row.locked))) throw new AppError('projectLocked');
  }

  /** Solution names are unique among the live solutions of a project. */
  private async nameTaken(projectId: string, name: string, exceptId?: string): Promise<boolean> {
    const q = this.knex('solutions').where('project_id', projectId).whereNull('deleted_at').whereRaw('lower(name) = ?', [name.toLowerCase()]);
    if (exceptId) q.whereNot('id', exceptId);
    return Boolean(await q.first('id'));
  }

  private async touch(project: ProjectRef, at: Date): Promise<void> {
    await this.knex('projects').where('id', project.id).update({ updated_at: at });
  }

  /** The live solutions of a project, no access check (share links, after their own check). */
  async listOf(projectId: string, keyword?: string): Promise<SolutionItem[]> {
    const q = this.query().where('s.project_id', projectId);
    if (keyword) q.whereRaw("lower(s.name) like ? escape '!'", [likePattern(keyword)]);
    const rows: SolutionRow[] = await q.orderBy([
      { column: 's.pinned', order: 'desc' },
      { column: 's.pinned_at', order: 'desc' },
      { column: 's.created_at', order: 'desc' },
      { column: 's.id' },
    ]);
    return rows.map(presentSolution);
  }

  async list(user: ServerCallUser, input: z.output<typeof solutionListRequestSchema>): Promise<SolutionItem[]> {
    await assertProjectAccess(this.knex, user, input.projectId, 'view');
    return this.listOf(input.projectId, input.keyword);
  }

  async get(user: ServerCallUser, solutionId: string): Promise<SolutionItem> {
    await assertSolutionAccess(this.knex, user, solutionId, 'view');
    const row: SolutionRow | undefined = await this.query().where('s.id', solutionId).first();
    if (!row) throw new AppError('solutionNotFound');
    return presentSolution(row);
  }

  async create(user: ServerCallUser, input: z.output<typeof createSolutionRequestSchema>): Promise<SolutionItem> {
    const { project } = await assertProjectAccess(this.knex, user, input.projectId, 'edit');
    await this.assertUnlocked(project.id);
    if (await this.nameTaken(project.id, input.name)) throw new AppError('solutionNameUsed');
    const now = this.clock.now();
    const id = newId();
    await this.knex('solutions').insert({
      id,
      tenant_id: project.tenantId,
      project_id: project.id,
      name: input.name,
      data_type: input.dataType,
      goal_type: input.goalType,
      description: input.description,
      pinned: false,
      pinned_at: null,
      creator_id: user.id,
      copied_from: null,
      created_at: now,
      updated_at: now,
    });
    await this.touch(project, now);
    await recordActivity(this.knex, user, { action: 'solution.create', projectId: project.id, solutionId: id, targetName: input.name }, now);
    return this.get(user, id);
  }

  async edit(user: ServerCallUser, input: z.output<typeof editSolutionRequestSchema>): Promise<SolutionItem> {
    const { project, solution } = await assertSolutionAccess(this.knex, user, input.solutionId, 'edit');
    await this.assertUnlocked(project.id);
    if (input.name !== undefined && (await this.nameTaken(project.id, input.name, solution.id))) throw new AppError('solutionNameUsed');
    const now = this.clock.now();
    const patch: Record<string, unknown> = { updated_at: now };
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description || null;
    await this.knex('solutions').where('id', solution.id).update(patch);
    await this.touch(project, now);
    await recordActivity(this.knex, user, { action: 'solution.edit', projectId: project.id, solutionId: solution.id, targetName: input.name ?? solution.name }, now);
    return this.get(user, solution.id);
  }

  /** A free name for a copy: "<name> (copy)", then "(copy 2)", ..., cut to the 50-character limit. */
  private async copyName(projectId: string, name: string): Promise<string> {
    for (let i = 1; i < 1000; i++) {
      const suffix = i === 1 ? ' (copy)' : ` (copy ${i})`;
      const candidate = name.slice(0, LIMITS.solutionNameMax - suffix.length) + suffix;
      if (!(await this.nameTaken(projectId, candidate))) return candidate;
    }
    throw new AppError('solutionNameUsed');
  }

  /**
   * Copies a solution into a new, unpinned solution of the same project: its settings, decision
   * graph, table correlation, schemes and rewards (`copy-content.ts`), in one transaction; with
   * `withModels` also its finished environments and policies with copies of their artefacts.
   */
  async copy(user: ServerCallUser, input: z.output<typeof copySolutionRequestSchema>): Promise<SolutionItem> {
    const { project, solution } = await assertSolutionAccess(this.knex, user, input.solutionId, 'edit');
    await this.assertUnlocked(project.id);
    let name: string;
    if (input.name !== undefined) {
      if (await this.nameTaken(project.id, input.name)) throw new AppError('solutionNameUsed');
      name = input.name;
    } else name = await this.copyName(project.id, solution.name);
    const source = await this.knex('solutions').where('id', solution.id).first('description');
    if (input.withModels && !this.blobs) throw new Error('Copying trained models needs the blob store');
    const now = this.clock.now();
    const id = newId();
    // Blobs written for the copied models: removed again when the transaction fails.
    const written: string[] = [];
    try {
      await this.db.transaction(async () => {
        await this.knex('solutions').insert({
          id,
          tenant_id: project.tenantId,
          project_id: project.id,
          name,
          data_type: solution.dataType,
          goal_type: solution.goalType,
          description: source?.description ?? null,
          pinned: false,
          pinned_at: null,
          creator_id: user.id,
          copied_from: solution.id,
          created_at: now,
          updated_at: now,
        });
        const { ids } = await copySolutionContent(this.knex, solution.id, id, user, now);
        if (input.withModels) await copyTrainedModels(this.knex, this.blobs!, { from: solution.id, to: id, owner: { tenantId: project.tenantId, userId: user.id }, now, ids, written });
      });
    } catch (err) {
      for (const key of written) await this.blobs?.removePrefix(key).catch(() => undefined);
      throw err;
    }
    await this.touch(project, now);
    await recordActivity(this.knex, user, { action: 'solution.copy', projectId: project.id, solutionId: id, targetName: name }, now);
    return this.get(user, id);
  }

  /**
   * Deletes a solution for good (the spec has no restore): its row is marked deleted (kept for
   * the activity feed) and the files its modelling work stored are given back to the quota and
   * removed. Refused while the project is locked or a delete guard objects. Runs its own
   * transaction: the files go only once the rows and the quota are committed.
   */
  async remove(user: ServerCallUser, solutionId: string): Promise<{ solutionId: string }> {
    return deleteWithArtefacts(this.db, this.blobs, async () => {
      const { project, solution } = await assertSolutionAccess(this.knex, user, solutionId, 'edit');
      await this.assertUnlocked(project.id);
      const refusal = await deleteRefusal(this.knex, { projectId: project.id, solutionId });
      if (refusal) throw new AppError(refusal);
      const now = this.clock.now();
      await this.knex('solutions').where('id', solutionId).update({ deleted_at: now, updated_at: now });
      await this.touch(project, now);
      await recordActivity(this.knex, user, { action: 'solution.delete', projectId: project.id, solutionId, targetName: solution.name }, now);
      return { scope: { projectId: project.id, solutionId }, result: { solutionId } };
    }, this.deletedJobs);
  }

  async pin(user: ServerCallUser, solutionId: string, pinned: boolean): Promise<SolutionItem> {
    const { project, solution } = await assertSolutionAccess(this.knex, user, solutionId, 'edit');
    await this.assertUnlocked(project.id);
    const now = this.clock.now();
    await this.knex('solutions').where('id', solutionId).update({ pinned, pinned_at: pinned ? now : null });
    await recordActivity(this.knex, user, { action: pinned ? 'solution.pin' : 'solution.unpin', projectId: project.id, solutionId, targetName: solution.name }, now);
    return this.get(user, solutionId);
  }
}
