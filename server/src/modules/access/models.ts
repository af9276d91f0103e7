import { BaseModel } from '../../db/base-model';

/** A role: a named set of permissions, linked to users (`user_roles`) and menus (`role_menus`). */
export class RoleModel extends BaseModel {
  static override tableName = 'roles';
  static override jsonAttributes = ['permissions'];
  static override booleanAttributes = ['isSystem'];
  id!: string;
  tenantId!: string | null;
  code!: string;
  name!: string;
  isSystem!: boolean;
  permissions!: string[];
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
}

/** A node of the console menu tree. */
export class MenuModel extends BaseModel {
  static override tableName = 'menus';
  static override booleanAttributes = ['hidden'];
  id!: string;
  parentId!: string | null;
  code!: string;
  name!: string;
  path!: string | null;
  icon!: string | null;
  sort!: number;
  permission!: string | null;
  type!: 'group' | 'page';
  hidden!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}
