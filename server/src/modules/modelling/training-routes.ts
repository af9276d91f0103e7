/**
 * The trainings core's calls, the same for every registered kind (`training-kinds.ts`):
 * `/<area>/create|list|get|delete` (+ `restore` for a restorable kind) and, for a kind whose
 * trained records are models others use, `/<modelArea>/list|get|delete|copy`. Stop, logs,
 * display data and the rest of one job are `train/*` (`train.ts`); the events stream is the job
 * contract's (`modules/jobs`).
 */
import { z } from 'zod';
import { copySchema, recordIdSchema, solutionRefSchema } from '@decisio/domain';
import type { PostRoute } from '../../http/route';
import type { TrainCalls } from './train';
import type { TrainingKinds } from './training-kinds';
import type { Trainings } from './trainings';

const ackSchema = recordIdSchema.extend({ acknowledged: z.boolean() });
const restoreSchema = recordIdSchema.extend({ mode: z.enum(['run', 'debug']).optional() });

/** The calls of every kind of `kinds`. */
export function trainingRoutes(post: PostRoute, kinds: TrainingKinds, trainings: Trainings, train: TrainCalls): void {
  for (const d of kinds.all()) {
    if (!d.modelArea) continue;
    // The model lists: a trained environment or policy, copied and deleted as a model.
    const table = d.table as 'simulators' | 'policies';
    post(`/${d.modelArea}/list`, solutionRefSchema, (i, u) => trainings.list(u, table, i.solutionId));
    post(`/${d.modelArea}/get`, recordIdSchema, (i, u) => trainings.get(u, table, i.id));
    post(`/${d.modelArea}/delete`, recordIdSchema, (i, u) => trainings.delete(u, table, i.id));
    post(`/${d.modelArea}/copy`, copySchema, (i, u) => trainings.copy(u, table, i.id, i.name));
  }
  for (const d of kinds.all()) {
    post(`/${d.area}/create`, d.createSchema, (i, u, ctx) => trainings.create(u, d, i, ctx.state.locale));
    post(`/${d.area}/list`, solutionRefSchema, (i, u) => trainings.list(u, d.table, i.solutionId, d.rowKind));
    post(`/${d.area}/get`, recordIdSchema, (i, u) => trainings.get(u, d.table, i.id, d.rowKind));
    if (d.deleteAck) {
      post(`/${d.area}/delete`, ackSchema, async (i, u) => {
        await train.deleteRecords(u, [], i.acknowledged);
        return trainings.delete(u, d.table, i.id, d.rowKind);
      });
    } else post(`/${d.area}/delete`, recordIdSchema, (i, u) => trainings.delete(u, d.table, i.id, d.rowKind));
    if (d.restorable) post(`/${d.area}/restore`, restoreSchema, (i, u) => trainings.restore(u, d.table as 'simulators' | 'policies', i.id, i.mode));
  }
}
