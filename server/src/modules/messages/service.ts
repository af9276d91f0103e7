/**
 * Messages of the user centre: other modules tell a user something through {@link Notifier}
 * (`notify(userId, kind, params)`), wired in `app.ts`; the user lists, counts, reads and deletes
 * their own messages. A message keeps its kind and parameters, never worded text: the client
 * words it in the reader's language.
 */
import { AppError, MODELLING_JOB_KINDS, type MessageItem, type MessageKind, type MessageParams, type Page } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isoDate, isoDateOrNull } from '../../db/iso';

/** What other modules call to write a message. */
export interface Notifier {
  /**
   * Writes a message to `userId` (of that user's tenant). With `dedupeKey`, a second message with
   * the same key for the same user is not written (notices of sweeps and repeated events).
   * @returns the new message id, or `null` when the user does not exist or the key was used.
   */
  notify(userId: string, kind: MessageKind, params: MessageParams, options?: { dedupeKey?: string }): Promise<string | null>;
}

interface MessageRow {
  id: string;
  kind: MessageKind;
  params: string;
  read_at: unknown;
  created_at: unknown;
}

function present(row: MessageRow): MessageItem {
  let params: MessageParams = {};
  try {
    params = JSON.parse(row.params) as MessageParams;
  } catch {
    // A damaged row still lists, without its parameters.
  }
  return { id: row.id, kind: row.kind, params, createdAt: isoDate(row.created_at), readAt: isoDateOrNull(row.read_at) };
}

/** Job kinds whose end is a "training" for the user (scheme processing is not). */
const TRAINING_KIND_BY_JOB = new Map<string, string>(
  Object.entries(MODELLING_JOB_KINDS)
    .filter(([k]) => k !== 'scheme')
    .map(([k, v]) => [v, k]),
);

/** The messages table and the calls on it. */
export class MessagesService implements Notifier {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  async notify(userId: string, kind: MessageKind, params: MessageParams, options: { dedupeKey?: string } = {}): Promise<string | null> {
    const user = await this.knex('users').where({ id: userId }).first('tenant_id');
    if (!user) return null;
    const dedupeKey = options.dedupeKey ?? null;
    if (dedupeKey && (await this.knex('messages').where({ user_id: userId, dedupe_key: dedupeKey }).first('id'))) return null;
    const id = newId();
    try {
      await this.knex('messages').insert({
        id,
        tenant_id: user.tenant_id,
        user_id: userId,
        kind,
        params: JSON.stringify(params),
        dedupe_key: dedupeKey,
        read_at: null,
        created_at: this.clock.now(),
      });
    } catch (err) {
      // Two writers with one dedupe key: the unique index keeps one message.
      if (dedupeKey && (await this.knex('messages').where({ user_id: userId, dedupe_key: dedupeKey }).first('id'))) return null;
      throw err;
    }
    return id;
  }

  /**
   * A job reached a final state: the user who started it gets "training ended" or "training
   * failed" once (jobs of other kinds than trainings and deductions say nothing).
   */
  async onJobFinal(jobId: string, state: string): Promise<void> {
    const job = await this.knex('jobs').where({ id: jobId }).first('id', 'user_id', 'kind', 'name', 'error');
    if (!job?.user_id) return;
    const trainingKind = TRAINING_KIND_BY_JOB.get(job.kind as string);
    if (!trainingKind) return;
    const failed = state === 'failure';
    await this.notify(
      job.user_id as string,
      failed ? 'trainingFailed' : 'trainingEnded',
      { jobId, name: job.name as string, trainingKind, state, error: failed ? String(job.error ?? '').slice(0, 300) : null },
      { dedupeKey: `job:${jobId}` },
    );
  }

  /** A page of the user's messages, newest first. */
  async list(userId: string, input: { page: number; pageSize: number; unread?: boolean }): Promise<Page<MessageItem>> {
    const base = () => {
      const q = this.knex('messages').where({ user_id: userId });
      if (input.unread) q.whereNull('read_at');
      return q;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select('id', 'kind', 'params', 'read_at', 'created_at')) as MessageRow[];
    return { rows: rows.map(present), total: Number(n), page: input.page, pageSize: input.pageSize };
  }

  async unreadCount(userId: string): Promise<number> {
    const [{ n }] = (await this.knex('messages').where({ user_id: userId }).whereNull('read_at').count({ n: '*' })) as [{ n: number | string }];
    return Number(n);
  }

  /**
   * The ids of the user's messages among `ids` (`null`: all of them, with `all`).
   * @throws AppError `messageNotFound` when an id is not one of the user's messages.
   */
  private async scope(userId: string, target: { ids?: string[]; all?: true }): Promise<string[] | null> {
    if (target.all) return null;
    const ids = [...new Set(target.ids ?? [])];
    const own = await this.knex('messages').where({ user_id: userId }).whereIn('id', ids).pluck('id');
    if (own.length !== ids.length) throw new AppError('messageNotFound');
    return ids;
  }

  private query(userId: string, ids: string[] | null) {
    const q = this.knex('messages').where({ user_id: userId });
    if (ids) q.whereIn('id', ids);
    return q;
  }

  /** Marks messages read; returns how many changed. */
  async markRead(userId: string, target: { ids?: string[]; all?: true }): Promise<number> {
    const ids = await this.scope(userId, target);
    return this.query(userId, ids).whereNull('read_at').update({ read_at: this.clock.now() });
  }

  /** Deletes messages; returns how many went. */
  async remove(userId: string, target: { ids?: string[]; all?: true }): Promise<number> {
    const ids = await this.scope(userId, target);
    return this.query(userId, ids).delete();
  }
}
