import { Model, snakeCaseMappers, type Pojo } from 'objection';

function toDate(value: unknown): unknown {
  if (value === null || value === undefined || value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'string') {
    // SQLite stores what knex bound (epoch ms); MySQL strings are UTC 'YYYY-MM-DD HH:MM:SS.mmm'.
    if (/^\d+$/.test(value)) return new Date(Number(value));
    return new Date(value.includes('T') ? value : value.replace(' ', 'T') + 'Z');
  }
  return value;
}

/**
 * Base of every model: camelCase properties over snake_case columns, and the differences between
 * SQLite and MariaDB smoothed out (dates come back as `Date`, booleans as `boolean`; JSON columns
 * are declared per model in `jsonAttributes`). Models are never bound to a global knex: queries
 * pass the executor explicitly (`UserModel.query(db.executor())`).
 */
export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }

  /** Properties holding dates. */
  static dateAttributes: string[] = ['createdAt', 'updatedAt'];
  /** Properties holding booleans (stored as 0/1). */
  static booleanAttributes: string[] = [];

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    const ctor = this.constructor as typeof BaseModel;
    for (const k of ctor.dateAttributes) if (k in parsed) parsed[k] = toDate(parsed[k]);
    for (const k of ctor.booleanAttributes) if (k in parsed && parsed[k] !== null) parsed[k] = Boolean(parsed[k]);
    return parsed;
  }
}
