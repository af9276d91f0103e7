/**
 * Support: the public contact-us form and support tickets. A user files a ticket and follows
 * it; an administrator (`support:write`) answers it once, which writes the user a
 * `ticketAnswered` message.
 */
import { AppError, hasContactMethod, type ContactItem, type ContactRequest, type Page, type WorkOrderItem, type WorkOrderStatus, type WorkOrderType } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isoDate, isoDateOrNull } from '../../db/iso';
import type { Notifier } from '../messages/service';
import { likePattern } from '../projects/service';

/** Contact forms one client address may send per window. */
export const CONTACT_MAX_PER_WINDOW = 5;
/** The contact form's window, ms. */
export const CONTACT_WINDOW_MS = 10 * 60_000;

interface WorkOrderRow {
  id: string;
  type: WorkOrderType;
  email: string | null;
  mobile: string | null;
  description: string;
  status: WorkOrderStatus;
  reply: string | null;
  replied_at: unknown;
  created_at: unknown;
  username: string;
  user_id: string;
  tenant_id: string;
}

function present(r: WorkOrderRow): WorkOrderItem {
  return {
    id: r.id,
    type: r.type,
    email: r.email,
    mobile: r.mobile,
    description: r.description,
    status: r.status,
    reply: r.reply,
    createdAt: isoDate(r.created_at),
    repliedAt: isoDateOrNull(r.replied_at),
    username: r.username,
  };
}

interface ContactRow {
  id: string;
  name: string;
  company: string | null;
  email: string | null;
  mobile: string | null;
  content: string;
  created_at: unknown;
  handled_at: unknown;
  handled_note: string | null;
  handled_by_name: string | null;
}

function presentContact(r: ContactRow): ContactItem {
  return {
    id: r.id,
    name: r.name,
    company: r.company,
    email: r.email,
    mobile: r.mobile,
    content: r.content,
    createdAt: isoDate(r.created_at),
    handledAt: isoDateOrNull(r.handled_at),
    handledBy: r.handled_by_name,
    handledNote: r.handled_note,
  };
}

/** Who acts on tickets. */
export interface SupportActor {
  id: string;
  tenantId: string;
}

export class SupportService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly notifier: Notifier,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /**
   * Keeps a contact-us form.
   * @throws AppError `contactMethodRequired` without e-mail and mobile; `tooManyRequests` past
   *   {@link CONTACT_MAX_PER_WINDOW} forms from one address in {@link CONTACT_WINDOW_MS}.
   */
  async contact(input: ContactRequest, address: string): Promise<{ id: string }> {
    if (!hasContactMethod(input)) throw new AppError('contactMethodRequired');
    const since = new Date(this.clock.now().getTime() - CONTACT_WINDOW_MS);
    const [{ n }] = (await this.knex('contact_requests').where({ address }).where('created_at', '>', since).count({ n: '*' })) as [{ n: number | string }];
    if (Number(n) >= CONTACT_MAX_PER_WINDOW) throw new AppError('tooManyRequests');
    const id = newId();
    await this.knex('contact_requests').insert({
      id,
      name: input.name,
      company: input.company || null,
      email: input.email || null,
      mobile: input.mobile || null,
      content: input.content,
      address: address.slice(0, 64),
      created_at: this.clock.now(),
    });
    return { id };
  }

  private contacts() {
    return this.knex('contact_requests').leftJoin('users', 'users.id', 'contact_requests.handled_by');
  }

  private contactColumns() {
    return ['contact_requests.*', 'users.username as handled_by_name'];
  }

  /**
   * The contact form's entries, newest first (administrators, `contacts:read`). The form is
   * public, so its entries belong to the platform, not to a tenant.
   */
  async listContacts(input: { page: number; pageSize: number; handled?: boolean | undefined; keyword?: string | undefined }): Promise<Page<ContactItem>> {
    const base = () => {
      const q = this.contacts();
      if (input.handled === true) q.whereNotNull('contact_requests.handled_at');
      if (input.handled === false) q.whereNull('contact_requests.handled_at');
      if (input.keyword) {
        const like = likePattern(input.keyword);
        q.where((w) => {
          for (const col of ['name', 'company', 'email', 'mobile', 'content']) w.orWhereRaw(`lower(??) like ? escape '!'`, [`contact_requests.${col}`, like]);
        });
      }
      return q;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base()
      .orderBy([{ column: 'contact_requests.created_at', order: 'desc' }, { column: 'contact_requests.id', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select(this.contactColumns())) as ContactRow[];
    return { rows: rows.map(presentContact), total: Number(n), page: input.page, pageSize: input.pageSize };
  }

  /**
   * Marks a contact-form entry handled by `actorId`, with an optional note.
   * @throws AppError `contactRequestNotFound`, `contactRequestHandled` (already marked).
   */
  async handleContact(actorId: string, id: string, note: string): Promise<ContactItem> {
    const found = await this.knex('contact_requests').where({ id }).first('id', 'handled_at');
    if (!found) throw new AppError('contactRequestNotFound');
    if (found.handled_at !== null) throw new AppError('contactRequestHandled');
    const changed = await this.knex('contact_requests')
      .where({ id })
      .whereNull('handled_at')
      .update({ handled_at: this.clock.now(), handled_by: actorId, handled_note: note || null });
    if (changed !== 1) throw new AppError('contactRequestHandled');
    return presentContact((await this.contacts().where('contact_requests.id', id).first(this.contactColumns())) as ContactRow);
  }

  /**
   * Files a ticket.
   * @throws AppError `contactMethodRequired` without e-mail and mobile.
   */
  async create(actor: SupportActor, input: { type: WorkOrderType; email?: string; mobile?: string; description: string }): Promise<WorkOrderItem> {
    if (!hasContactMethod(input)) throw new AppError('contactMethodRequired');
    const id = newId();
    await this.knex('work_orders').insert({
      id,
      tenant_id: actor.tenantId,
      user_id: actor.id,
      type: input.type,
      email: input.email || null,
      mobile: input.mobile || null,
      description: input.description,
      status: 'submitted',
      reply: null,
      replied_by: null,
      replied_at: null,
      created_at: this.clock.now(),
      deleted_at: null,
    });
    return present((await this.row(id))!);
  }

  private row(id: string): Promise<WorkOrderRow | undefined> {
    return this.knex('work_orders')
      .join('users', 'users.id', 'work_orders.user_id')
      .where('work_orders.id', id)
      .whereNull('work_orders.deleted_at')
      .first('work_orders.*', 'users.username');
  }

  /** The ticket if `actor` filed it (`own`) or it is of `actor`'s tenant (administrators). */
  async find(actor: SupportActor, id: string, reach: 'own' | 'tenant'): Promise<WorkOrderRow> {
    const r = await this.row(id);
    if (!r || r.tenant_id !== actor.tenantId || (reach === 'own' && r.user_id !== actor.id)) throw new AppError('workOrderNotFound');
    return r;
  }

  /** Deletes one of the caller's own tickets (kept as deleted). */
  async remove(actor: SupportActor, id: string): Promise<{ id: string }> {
    await this.find(actor, id, 'own');
    await this.knex('work_orders').where({ id }).update({ deleted_at: this.clock.now() });
    return { id };
  }

  /** The caller's tickets (`mine`) or the tenant's (`all`), newest first. */
  async list(actor: SupportActor, input: { page: number; pageSize: number; status?: WorkOrderStatus; scope: 'mine' | 'all' }): Promise<Page<WorkOrderItem>> {
    const base = () => {
      const q = this.knex('work_orders').join('users', 'users.id', 'work_orders.user_id').where('work_orders.tenant_id', actor.tenantId).whereNull('work_orders.deleted_at');
      if (input.scope === 'mine') q.where('work_orders.user_id', actor.id);
      if (input.status) q.where('work_orders.status', input.status);
      return q;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base()
      .orderBy([{ column: 'work_orders.created_at', order: 'desc' }, { column: 'work_orders.id', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select('work_orders.*', 'users.username')) as WorkOrderRow[];
    return { rows: rows.map(present), total: Number(n), page: input.page, pageSize: input.pageSize };
  }

  /**
   * Answers a ticket of the tenant and tells its author.
   * @throws AppError `workOrderNotFound`, `workOrderAlreadyReplied`.
   */
  async reply(actor: SupportActor, id: string, text: string): Promise<WorkOrderItem> {
    const r = await this.find(actor, id, 'tenant');
    if (r.status === 'replied') throw new AppError('workOrderAlreadyReplied');
    const now = this.clock.now();
    const changed = await this.knex('work_orders').where({ id, status: 'submitted' }).update({ status: 'replied', reply: text, replied_by: actor.id, replied_at: now });
    if (changed !== 1) throw new AppError('workOrderAlreadyReplied');
    await this.notifier.notify(r.user_id, 'ticketAnswered', { workOrderId: id, type: r.type, excerpt: r.description.slice(0, 80) }, { dedupeKey: `ticket:${id}` });
    return present((await this.row(id))!);
  }
}
