import { BaseModel } from '../../db/base-model';

/** Kinds of system-log rows (`job`: a scheduled-job run, written by the worker that ran it). */
export type LogType = 'login' | 'operation' | 'query' | 'error' | 'job';

/** A system-log row: one per API call (spec platform §3 "Log"). */
export class LogModel extends BaseModel {
  static override tableName = 'logs';
  static override dateAttributes = ['createdAt'];
  id!: string;
  title!: string;
  type!: LogType;
  host!: string | null;
  uri!: string;
  method!: string;
  /** Request parameters as JSON, secrets masked. */
  params!: string | null;
  responseCode!: number;
  httpStatus!: number;
  timeMs!: number;
  userId!: string | null;
  username!: string | null;
  tenantId!: string | null;
  requestId!: string;
  ip!: string | null;
  userAgent!: string | null;
  createdAt!: Date;
}
