import type { QueryBuilder } from 'objection';
import { BaseModel } from '../../db/base-model';

/** A tenant: every user, organisation and tenant-scoped row belongs to one. */
export class TenantModel extends BaseModel {
  static override tableName = 'tenants';
  id!: string;
  code!: string;
  name!: string;
  status!: 'enabled' | 'disabled';
  createdAt!: Date;
  updatedAt!: Date;
}

/** An organisation of a tenant (a tree through `parentId`). */
export class OrganisationModel extends BaseModel {
  static override tableName = 'organisations';
  static override modifiers = {
    ofTenant(query: QueryBuilder<OrganisationModel>, tenantId: string) {
      query.where('organisations.tenant_id', tenantId);
    },
  };
  id!: string;
  tenantId!: string;
  parentId!: string | null;
  name!: string;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
}
