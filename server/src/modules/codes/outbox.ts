import { AppError, type CodeChannel, type OutboxItem, type OutboxListRequest, type OutboxListResponse } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import { toDate } from '../storage/service';
import type { MailTransport, SmsProvider } from './transports';

/** A message for the outbox; `secret` (a code) is masked in the kept copy once delivered. */
export interface OutboxMessage {
  channel: CodeChannel;
  to: string;
  purpose: string | null;
  subject: string;
  text: string;
  secret?: string;
}

interface OutboxRow {
  id: string;
  channel: CodeChannel;
  recipient: string;
  purpose: string | null;
  subject: string;
  body: string;
  status: OutboxItem['status'];
  error: string | null;
  created_at: unknown;
  sent_at: unknown;
}

/**
 * Every e-mail and SMS the product sends goes through here: a row in `outbox`, then the transport
 * of its channel. Without a transport (development mode) the message is written to the server log
 * and stays readable in the outbox list for administrators (`status: 'logged'`). After a real
 * delivery the code in the kept copy is masked, so the table holds no usable code.
 */
export class Outbox {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly transports: { mail: MailTransport | null; sms: SmsProvider | null },
  ) {}

  /** Which transports are configured. */
  get configured(): OutboxListResponse['transports'] {
    return { email: this.transports.mail?.kind ?? null, sms: this.transports.sms?.kind ?? null };
  }

  /**
   * Records and delivers one message.
   * @throws AppError `codeSendFailed` when the transport refuses it (the row keeps the reason).
   */
  async send(message: OutboxMessage): Promise<void> {
    const id = newId();
    const knex = this.db.executor();
    const transport = message.channel === 'email' ? this.transports.mail : this.transports.sms;
    await knex('outbox').insert({
      id,
      channel: message.channel,
      recipient: message.to,
      purpose: message.purpose,
      subject: message.subject,
      body: message.text,
      status: transport ? 'pending' : 'logged',
      error: null,
      created_at: this.clock.now(),
      sent_at: null,
    });
    if (!transport) {
      this.logger.info('outbox: no transport configured, message logged (development mode)', {
        channel: message.channel,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      return;
    }
    try {
      if (message.channel === 'email') await this.transports.mail!.send({ to: message.to, subject: message.subject, text: message.text });
      else await this.transports.sms!.send({ to: message.to, text: message.text });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn('outbox: delivery failed', { id, channel: message.channel, err: reason });
      await knex('outbox').where('id', id).update({ status: 'failed', error: reason.slice(0, 500) });
      throw new AppError('codeSendFailed');
    }
    const kept = message.secret ? message.text.split(message.secret).join('*'.repeat(message.secret.length)) : message.text;
    await knex('outbox').where('id', id).update({ status: 'sent', body: kept, sent_at: this.clock.now() });
  }

  /** A page of the outbox, newest first (administrators). */
  async list(query: OutboxListRequest): Promise<OutboxListResponse> {
    const base = this.db.executor()('outbox');
    if (query.recipient) base.where('recipient', query.recipient.toLowerCase());
    const counted = (await base.clone().count({ n: '*' }).first()) as { n: number | string } | undefined;
    const rows = (await base
      .clone()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .offset((query.page - 1) * query.pageSize)
      .limit(query.pageSize)) as OutboxRow[];
    return {
      rows: rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        recipient: r.recipient,
        purpose: r.purpose,
        subject: r.subject,
        body: r.body,
        status: r.status,
        error: r.error,
        createdAt: toDate(r.created_at)!.toISOString(),
        sentAt: toDate(r.sent_at)?.toISOString() ?? null,
      })),
      total: Number(counted?.n ?? 0),
      page: query.page,
      pageSize: query.pageSize,
      transports: this.configured,
    };
  }
}
