import type { QueryBuilder, RelationMappings } from 'objection';
import type { Occupation, UserStatus } from '@decisio/domain';
import { BaseModel } from '../../db/base-model';
import { RoleModel } from '../access/models';

/** An account. `passwordHash` is argon2id; it never leaves the server. */
export class UserModel extends BaseModel {
  static override tableName = 'users';
  static override dateAttributes = ['createdAt', 'updatedAt', 'lastSignInAt', 'studentUntil'];
  static override booleanAttributes = ['isStudent', 'mustChangePassword'];
  static override modifiers = {
    ofTenant(query: QueryBuilder<UserModel>, tenantId: string) {
      query.where('users.tenant_id', tenantId);
    },
  };
  static override relationMappings = (): RelationMappings => ({
    roles: {
      relation: BaseModel.ManyToManyRelation,
      modelClass: RoleModel,
      join: {
        from: 'users.id',
        through: { from: 'user_roles.user_id', to: 'user_roles.role_id' },
        to: 'roles.id',
      },
    },
  });

  id!: string;
  tenantId!: string;
  orgId!: string | null;
  username!: string;
  nickname!: string | null;
  email!: string | null;
  mobile!: string | null;
  passwordHash!: string;
  industry!: string | null;
  occupation!: Occupation | null;
  organisation!: string | null;
  isStudent!: boolean;
  university!: string | null;
  major!: string | null;
  campusEmail!: string | null;
  /** End of the student certification (campus e-mail code); null when never certified. */
  studentUntil!: Date | null;
  status!: UserStatus;
  mustChangePassword!: boolean;
  avatar!: string | null;
  lastSignInAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  roles?: RoleModel[];
}
