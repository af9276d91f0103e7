import { BaseModel } from '../../db/base-model';

/** A session: the sha256 of a bearer token, its owner and its lifetime. */
export class SessionModel extends BaseModel {
  static override tableName = 'sessions';
  static override dateAttributes = ['createdAt', 'expiresAt', 'revokedAt'];
  id!: string;
  userId!: string;
  tenantId!: string;
  tokenHash!: string;
  ip!: string | null;
  userAgent!: string | null;
  createdAt!: Date;
  expiresAt!: Date;
  revokedAt!: Date | null;
}
