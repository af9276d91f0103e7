/**
 * The serving runtime: the hot path of the decision endpoint. Each service's state (status,
 * token hash, loaded policy) is cached in memory; a call does no database round trip: it checks
 * the token (and its expiry, a cached epoch-ms number), runs the cached policy and queues its
 * call record. Cached states are re-read from
 * the database in the background every `revalidateMs` (so a stop or token rotation made by
 * another server process applies within that time; this process applies its own at once).
 * A service that is running in the database but not loaded here (restart, another process
 * started it) is loaded on its first call; concurrent first calls share one load.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, DEPLOY_LIMITS, ErrorCode, decisionOutcomeSchema, type DecisionReply, type Locale, type ModelServiceStatus } from '@decisio/domain';
import { getBackend } from '@decisio/compute';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { orderedId } from '../../db/ids';
import type { Logger } from '../../logger';
import { ServingIO } from './io';
import type { PolicySource } from './policy-source';
import type { CallRecorder } from './recorder';

/** sha256 of an access token, hex. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh access token (256 random bits) and its hash and hint. */
export function newAccessToken(): { token: string; hash: string; hint: string } {
  const token = `dk_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashAccessToken(token), hint: token.slice(-4) };
}

/** What the runtime keeps per service. */
interface ServiceState {
  id: string;
  tenantId: string;
  policyId: string;
  status: ModelServiceStatus;
  deleted: boolean;
  /** Records keep each call's inputs and decisions. */
  keepPayloads: boolean;
  tokenHash: Buffer;
  /** When the token stops working, epoch ms (`Infinity`: never). */
  tokenExpiresMs: number;
  io: ServingIO | null;
  checkedAt: number;
  refreshing: boolean;
  /** Bumped by every local change, so a database read that started before it does not undo it. */
  version: number;
}

/** The row fields the runtime reads. */
interface ServiceRow {
  id: string;
  tenant_id: string;
  policy_id: string;
  status: ModelServiceStatus;
  token_hash: string;
  token_expires_at: unknown;
  keep_payloads: unknown;
  deleted_at: unknown;
}

/** Options of the runtime. */
export interface ServingRuntimeOptions {
  /** How often a cached state is re-read from the database, ms (default 2000). */
  revalidateMs?: number;
}

/** The serving runtime (see the module comment). */
export class ServingRuntime {
  private readonly states = new Map<string, ServiceState>();
  private readonly pending = new Map<string, Promise<ServiceState | null>>();
  /** Loaded policies by service id (the policy id they were loaded for). */
  private readonly loaded = new Map<string, { policyId: string; io: Promise<ServingIO> }>();
  private readonly revalidateMs: number;
  private backendReady = false;

  constructor(
    private readonly db: Database,
    private readonly source: PolicySource,
    private readonly recorder: CallRecorder,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: ServingRuntimeOptions = {},
  ) {
    this.revalidateMs = options.revalidateMs ?? 2000;
  }

  /**
   * Loads (once per service and policy) the policy of a service: the compute core's fastest CPU
   * path is chosen on the first load of the process.
   */
  loadPolicy(serviceId: string, tenantId: string, policyId: string): Promise<ServingIO> {
    const have = this.loaded.get(serviceId);
    if (have && have.policyId === policyId) return have.io;
    if (!this.backendReady) {
      getBackend();
      this.backendReady = true;
    }
    const io = this.source.load(tenantId, policyId).then(({ runner }) => new ServingIO(runner));
    this.loaded.set(serviceId, { policyId, io });
    io.catch(() => {
      if (this.loaded.get(serviceId)?.io === io) this.loaded.delete(serviceId);
    });
    return io;
  }

  /** Applies a change made by this process at once (start, stop, rotation, delete). */
  update(
    serviceId: string,
    patch: { status?: ModelServiceStatus; tokenHash?: string; tokenExpiresAt?: Date | null; deleted?: boolean; policyId?: string; io?: ServingIO | null; keepPayloads?: boolean },
  ): void {
    const st = this.states.get(serviceId);
    if (patch.deleted || (patch.status && patch.status !== 'running')) this.loaded.delete(serviceId);
    if (!st) return;
    st.version++;
    if (patch.status) st.status = patch.status;
    if (patch.tokenHash) st.tokenHash = Buffer.from(patch.tokenHash, 'hex');
    if (patch.tokenExpiresAt !== undefined) st.tokenExpiresMs = expiryMs(patch.tokenExpiresAt);
    if (patch.policyId) st.policyId = patch.policyId;
    if (patch.deleted !== undefined) st.deleted = patch.deleted;
    if (patch.keepPayloads !== undefined) st.keepPayloads = patch.keepPayloads;
    if (patch.io !== undefined) st.io = patch.io;
    if (st.status !== 'running' || st.deleted) st.io = null;
  }

  private async fetch(serviceId: string): Promise<ServiceState | null> {
    const version = this.states.get(serviceId)?.version ?? 0;
    const row = (await this.db.knex('model_services')
      .where('id', serviceId)
      .first('id', 'tenant_id', 'policy_id', 'status', 'token_hash', 'token_expires_at', 'keep_payloads', 'deleted_at')) as ServiceRow | undefined;
    if (!row) {
      this.states.delete(serviceId);
      return null;
    }
    let io: ServingIO | null = null;
    const deleted = Boolean(row.deleted_at);
    if (row.status === 'running' && !deleted) {
      try {
        io = await this.loadPolicy(row.id, row.tenant_id, row.policy_id);
      } catch (err) {
        this.logger.warn('deployed policy could not be loaded', { serviceId, err });
      }
    }
    const prev = this.states.get(serviceId);
    if (prev && prev.version !== version) return prev;
    const st: ServiceState = {
      id: row.id,
      tenantId: row.tenant_id,
      policyId: row.policy_id,
      status: row.status,
      deleted,
      keepPayloads: Boolean(Number(row.keep_payloads ?? 1)),
      tokenHash: Buffer.from(row.token_hash, 'hex'),
      tokenExpiresMs: expiryMs(row.token_expires_at),
      io,
      checkedAt: Date.now(),
      refreshing: false,
      version,
    };
    if (prev) Object.assign(prev, st);
    else this.states.set(serviceId, st);
    return this.states.get(serviceId)!;
  }

  /** The cached state, loaded on first use (shared by concurrent callers). */
  private state(serviceId: string): ServiceState | null | Promise<ServiceState | null> {
    const st = this.states.get(serviceId);
    if (st) {
      if (!st.refreshing && Date.now() - st.checkedAt > this.revalidateMs) {
        st.refreshing = true;
        this.fetch(serviceId)
          .catch((err: unknown) => this.logger.warn('service state refresh failed', { serviceId, err }))
          .finally(() => {
            const s = this.states.get(serviceId);
            if (s) {
              s.refreshing = false;
              s.checkedAt = Date.now();
            }
          });
      }
      return st;
    }
    let p = this.pending.get(serviceId);
    if (!p) {
      p = this.fetch(serviceId).finally(() => this.pending.delete(serviceId));
      this.pending.set(serviceId, p);
    }
    return p;
  }

  /**
   * A call of the access address: checks the token, decides, queues the call record.
   * @throws AppError `deployNotFound`, `deployTokenInvalid`, `deployTokenExpired` (none recorded),
   *   `deployDeleted`, `deployNotRunning`, `deployInputInvalid` (recorded as failures).
   */
  async decide(serviceId: string, token: string | undefined, body: unknown, ip: string | null, locale: Locale, text?: string): Promise<DecisionReply> {
    const s = this.state(serviceId);
    const st = s instanceof Promise ? await s : s;
    const now = this.clock.now();
    return this.run(this.authorised(st, token, now.getTime()), body, ip, locale, now, text);
  }

  /**
   * The state of a call whose token matches and has not expired at `now` (epoch ms; the call's
   * own start time, so the check allocates nothing). A wrong token is `deployTokenInvalid`
   * whatever the expiry.
   */
  private authorised(st: ServiceState | null, token: string | undefined, now: number): ServiceState {
    if (!st) throw new AppError('deployNotFound');
    if (!token || !tokenMatches(st.tokenHash, token)) throw new AppError('deployTokenInvalid');
    if (now >= st.tokenExpiresMs) throw new AppError('deployTokenExpired');
    return st;
  }

  /**
   * `POST <access address>/outcome`: keeps what followed a decision of this service on its call
   * record (any state but deleted: outcomes arrive after the fact).
   * @throws AppError `deployNotFound`, `deployTokenInvalid`, `deployTokenExpired`, `deployDeleted`,
   *   `paramInvalid` (by field), `deployDecisionNotFound` (no successful call with this id on this
   *   service).
   */
  async reportOutcome(serviceId: string, token: string | undefined, body: unknown, text: string, locale: Locale): Promise<{ decisionId: string }> {
    const s = this.state(serviceId);
    const now = this.clock.now();
    const st = this.authorised(s instanceof Promise ? await s : s, token, now.getTime());
    if (st.deleted) throw new AppError('deployDeleted');
    if (text.length > DEPLOY_LIMITS.outcomeMaxBytes) throw new AppError('paramInvalid', { outcome: locale === 'en-US' ? 'At most 64 KB' : '不能超过 64 KB' });
    const parsed = decisionOutcomeSchema.safeParse(body);
    if (!parsed.success) {
      const details: Record<string, string> = {};
      for (const issue of parsed.error.issues) details[issue.path.join('.') || '_'] ??= locale === 'en-US' ? 'Not valid' : '格式不正确';
      throw new AppError('paramInvalid', details);
    }
    const { decisionId, outcome } = parsed.data;
    const bad = (Array.isArray(outcome) ? outcome : [outcome]).some((row) => Object.values(row).some((v) => (Array.isArray(v) ? v.some((x) => !Number.isFinite(x)) : !Number.isFinite(v))));
    if (bad) throw new AppError('paramInvalid', { outcome: locale === 'en-US' ? 'Values must be finite numbers' : '取值必须是有限数字' });
    await this.recorder.attachOutcome(st.id, decisionId, outcome, now, locale);
    return { decisionId };
  }

  /** A trial call of the workbench (the caller's project right was checked instead of the token). */
  async decideTrusted(serviceId: string, body: unknown, ip: string | null, locale: Locale): Promise<DecisionReply> {
    const s = this.state(serviceId);
    const st = s instanceof Promise ? await s : s;
    if (!st) throw new AppError('deployNotFound');
    return this.run(st, body, ip, locale, this.clock.now());
  }

  private async run(st: ServiceState, body: unknown, ip: string | null, locale: Locale, startedAt: Date, text?: string): Promise<DecisionReply> {
    const t0 = performance.now();
    const id = orderedId();
    const rows = Array.isArray(body) ? body.length : 1;
    try {
      if (st.deleted) throw new AppError('deployDeleted');
      if (st.status !== 'running' || !st.io) throw new AppError('deployNotRunning');
      if (rows === 0 || rows > DEPLOY_LIMITS.batchRowsMax) {
        throw new AppError('deployInputInvalid', { _: locale === 'en-US' ? 'A batch holds 1 to 10000 rows' : '批量决策为 1 至 10000 行' });
      }
      const decisions = Array.isArray(body) ? st.io.decide(body, locale) : await st.io.decideOne(body, locale);
      this.record(st, id, startedAt, t0, ip, 'success', rows, null, st.keepPayloads ? payloadOf(body, text, decisions) : null);
      return { decisionId: id, decisions };
    } catch (err) {
      const code = err instanceof AppError ? err.code : ErrorCode.internalError;
      this.record(st, id, startedAt, t0, ip, 'failure', rows, code);
      if (!(err instanceof AppError)) this.logger.error('decision failed', { serviceId: st.id, err });
      throw err instanceof AppError ? err : new AppError('internalError');
    }
  }

  private record(
    st: ServiceState,
    id: string,
    startedAt: Date,
    t0: number,
    ip: string | null,
    result: 'success' | 'failure',
    rows: number,
    code: number | null,
    payload: { inputs: string; decisions: string } | null = null,
  ): void {
    const duration = performance.now() - t0;
    this.recorder.record({
      id,
      service_id: st.id,
      tenant_id: st.tenantId,
      started_at: startedAt,
      ended_at: new Date(startedAt.getTime() + Math.round(duration)),
      duration_ms: Math.round(duration * 1000) / 1000,
      ip: ip ? ip.slice(0, 64) : null,
      result,
      row_count: rows,
      error_code: code,
      inputs: payload?.inputs ?? null,
      decisions: payload?.decisions ?? null,
    });
  }
}

/** The texts a record keeps of a successful call, or null when they exceed the limit. */
function payloadOf(body: unknown, text: string | undefined, decisions: unknown): { inputs: string; decisions: string } | null {
  if (text !== undefined && text.length > DEPLOY_LIMITS.payloadMaxBytes) return null;
  const inputs = text ?? JSON.stringify(body);
  const out = JSON.stringify(decisions);
  return inputs.length + out.length > DEPLOY_LIMITS.payloadMaxBytes ? null : { inputs, decisions: out };
}

/** A token expiry as read from the database or given by the service (null: never) in epoch ms. */
function expiryMs(v: unknown): number {
  if (v === null || v === undefined) return Infinity;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'number') return v;
  const text = String(v);
  return /^\d+$/.test(text) ? Number(text) : new Date(text).getTime();
}

function tokenMatches(expected: Buffer, token: string): boolean {
  const got = createHash('sha256').update(token).digest();
  return got.length === expected.length && timingSafeEqual(got, expected);
}
