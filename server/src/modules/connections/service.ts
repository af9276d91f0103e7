import {
  AppError,
  DEFAULT_DRIVERS,
  type ConnectionType,
  type CreateConnectionRequest,
  type DataConnection,
  type Page,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { RemoteTarget } from './connector';
import type { SecretBox } from '../../db/secrets';

/** A row of `data_connections`. */
interface ConnectionRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  type: ConnectionType;
  name: string;
  group_name: string;
  driver: string;
  url: string;
  zk_address: string;
  database_name: string;
  username: string;
  password_enc: string;
  remark: string;
  created_at: Date | string | number;
  updated_at: Date | string | number;
  owner_name?: string | null;
}

/** Validated create/update fields (after zod defaults). */
export interface ConnectionFields {
  type: ConnectionType;
  name: string;
  group: string;
  driver?: string;
  url: string;
  zkAddress: string;
  database: string;
  username: string;
  remark: string;
}

/** Page query of `queryListByPage`. */
export interface ConnectionQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  type?: ConnectionType;
  group?: string;
}

/** A stored time (SQLite: epoch ms; MySQL: Date) as ISO-8601. */
const iso = (d: Date | string | number) => new Date(typeof d === 'string' && !/^\d+$/.test(d) ? d.replace(' ', 'T') + (d.endsWith('Z') ? '' : 'Z') : Number(d instanceof Date ? d.getTime() : d)).toISOString();

/** Admins of a tenant see and manage every connection of it; others only their own. */
export function isTenantAdmin(user: ServerCallUser): boolean {
  return user.isSystemRole || user.permissions.includes('*');
}

/** Data connections of a tenant: stored with the password sealed, shown without it. */
export class ConnectionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  private visible(user: ServerCallUser): Knex.QueryBuilder {
    const q = this.db.executor()('data_connections as c')
      .leftJoin('users as u', 'u.id', 'c.owner_id')
      .select('c.*', 'u.username as owner_name')
      .where('c.tenant_id', user.tenantId);
    if (!isTenantAdmin(user)) q.andWhere('c.owner_id', user.id);
    return q;
  }

  private present(row: ConnectionRow): DataConnection {
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      group: row.group_name,
      driver: row.driver,
      url: row.url,
      zkAddress: row.zk_address,
      database: row.database_name,
      username: row.username,
      hasPassword: row.password_enc !== '',
      remark: row.remark,
      creatorId: row.owner_id,
      creatorName: row.owner_name ?? null,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  }

  private async row(user: ServerCallUser, id: string): Promise<ConnectionRow> {
    const row = (await this.visible(user).andWhere('c.id', id).first()) as ConnectionRow | undefined;
    if (!row) throw new AppError('dataSourceNotFound');
    return row;
  }

  /** One page, newest first; `keyword` matches name, URL, database or remark. */
  async page(user: ServerCallUser, query: ConnectionQuery): Promise<Page<DataConnection>> {
    const base = this.visible(user);
    if (query.type) base.andWhere('c.type', query.type);
    if (query.group) base.andWhere('c.group_name', query.group);
    if (query.keyword) {
      const like = `%${query.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      base.andWhere((q) =>
        q
          .whereRaw("lower(c.name) like ? escape '!'", [like])
          .orWhereRaw("lower(c.url) like ? escape '!'", [like])
          .orWhereRaw("lower(c.database_name) like ? escape '!'", [like])
          .orWhereRaw("lower(c.remark) like ? escape '!'", [like]),
      );
    }
    const [{ n }] = (await base.clone().clearSelect().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base
      .clone()
      .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id' }])
      .offset((query.page - 1) * query.pageSize)
      .limit(query.pageSize)) as ConnectionRow[];
    return { rows: rows.map((r) => this.present(r)), total: Number(n), page: query.page, pageSize: query.pageSize };
  }

  /** Every visible connection (for pickers), by name. */
  async all(user: ServerCallUser): Promise<DataConnection[]> {
    const rows = (await this.visible(user).orderBy('c.name')) as ConnectionRow[];
    return rows.map((r) => this.present(r));
  }

  async get(user: ServerCallUser, id: string): Promise<DataConnection> {
    return this.present(await this.row(user, id));
  }

  async create(user: ServerCallUser, fields: ConnectionFields, password: string): Promise<DataConnection> {
    const now = this.clock.now();
    const id = newId();
    const row = {
      id,
      tenant_id: user.tenantId,
      owner_id: user.id,
      ...this.columns(fields),
      password_enc: await this.secrets.seal(password),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.executor()('data_connections').insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('dataSourceNameUsed', { name: 'validation.invalid' });
      throw err;
    }
    return this.get(user, id);
  }

  /** `password === null/undefined` keeps the stored one; `''` removes it. */
  async update(user: ServerCallUser, id: string, fields: ConnectionFields, password: string | null | undefined): Promise<DataConnection> {
    await this.row(user, id);
    const patch: Record<string, unknown> = { ...this.columns(fields), updated_at: this.clock.now() };
    if (password != null) patch['password_enc'] = await this.secrets.seal(password);
    try {
      await this.db.executor()('data_connections').where({ id, tenant_id: user.tenantId }).update(patch);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('dataSourceNameUsed', { name: 'validation.invalid' });
      throw err;
    }
    return this.get(user, id);
  }

  async remove(user: ServerCallUser, id: string): Promise<void> {
    await this.row(user, id);
    await this.db.executor()('data_connections').where({ id, tenant_id: user.tenantId }).delete();
  }

  /** What `connector.ts` needs to reach a saved connection (password unsealed; `password` overrides it). */
  async target(user: ServerCallUser, id: string, password?: string | null): Promise<RemoteTarget & { id: string; name: string }> {
    const row = await this.row(user, id);
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      url: row.url,
      database: row.database_name,
      username: row.username,
      password: password != null ? password : await this.secrets.open(row.password_enc),
    };
  }

  private columns(f: ConnectionFields) {
    return {
      type: f.type,
      name: f.name,
      group_name: f.group,
      driver: f.driver || DEFAULT_DRIVERS[f.type],
      url: f.url,
      zk_address: f.zkAddress,
      database_name: f.database,
      username: f.username,
      remark: f.remark,
    };
  }
}

export type { CreateConnectionRequest };
