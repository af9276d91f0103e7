import { z } from 'zod';
import { emailSchema, mobileSchema, nicknameSchema, usernameSchema } from '../account/schemas';
import { idSchema, pageRequestSchema, userListRequestSchema, type UserListItem } from './schemas';

/**
 * Administration calls (spec platform §6, §7 "Admin"): users, roles and their menu/permission
 * matrix, menus, organisations and tenants. Payloads are read by the admin plugin's forms and
 * validated by the server with the same schemas.
 */

/* ----------------------------------------------------------------------------- users */

/** `users/getUserList` filters beyond keyword and status. */
export const userFilterSchema = z.object({
  roleId: idSchema.optional(),
  orgId: idSchema.optional(),
  /** System admins only: another tenant's users. */
  tenantId: idSchema.optional(),
});
export type UserFilter = z.infer<typeof userFilterSchema>;

/** `users/getUserList` query or body with the admin filters. */
export const adminUserListRequestSchema = userListRequestSchema.extend(userFilterSchema.shape);

/** Fields an admin sets on an account (`users/addUser`, `users/updateUser`). */
const userFieldsSchema = z.object({
  nickname: nicknameSchema.nullable().optional(),
  email: emailSchema,
  mobile: mobileSchema.nullable().optional(),
  /** Roles by id: roles of the caller's tenant or shared ones. At least one (spec: must have a role). */
  roleIds: z.array(idSchema).min(1, 'validation.required').max(20),
  orgId: idSchema.nullable().optional(),
  /** System admins only; default the caller's tenant. */
  tenantId: idSchema.optional(),
});

/** `users/addUser` body. The server makes a temporary password, answered once. */
export const addUserRequestSchema = userFieldsSchema.extend({ username: usernameSchema });
export type AddUserRequest = z.infer<typeof addUserRequestSchema>;

/** `users/updateUser` body. */
export const updateUserRequestSchema = userFieldsSchema.extend({ userId: idSchema });
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/** `users/checkNameAndPhone` body: is this username / mobile free (for `exceptUserId`'s edit)? */
export const checkNameAndPhoneRequestSchema = z
  .object({
    username: usernameSchema.optional(),
    mobile: mobileSchema.optional(),
    exceptUserId: idSchema.optional(),
  })
  .refine((v) => v.username !== undefined || v.mobile !== undefined, { message: 'validation.required', path: ['username'] });
export type CheckNameAndPhoneRequest = z.infer<typeof checkNameAndPhoneRequestSchema>;

/** `users/checkNameAndPhone` reply data: `true` when free. */
export interface CheckNameAndPhoneResponse {
  usernameFree: boolean | null;
  mobileFree: boolean | null;
}

/**
 * `users/addUser` and `users/resetPassword` reply data: the temporary password, shown once to
 * the admin; the user must change it at the next sign-in.
 */
export interface TemporaryPasswordResponse {
  userId: string;
  temporaryPassword: string;
}

/** One row of the admin user list, with organisation and tenant. */
export interface AdminUserListItem extends UserListItem {
  orgId: string | null;
  mustChangePassword: boolean;
}

/* ----------------------------------------------------------------------------- roles */

/** Role code: letters, digits, dot, dash, underscore. */
export const roleCodeSchema = z.string().min(2).max(64).regex(/^[A-Za-z][A-Za-z0-9._-]*$/, 'validation.invalid');
const nameSchema = z.string().trim().min(1).max(100);

/** `POST roles` body. */
export const roleCreateSchema = z.object({
  code: roleCodeSchema,
  name: nameSchema,
  sort: z.number().int().min(0).max(100000).default(100),
  /** System admins only: `null` makes a role shared by every tenant (their default), an id one of that tenant. */
  tenantId: idSchema.nullable().optional(),
});
export type RoleCreateRequest = z.infer<typeof roleCreateSchema>;

/** `PUT roles/{id}` body. */
export const roleUpdateSchema = z.object({
  code: roleCodeSchema.optional(),
  name: nameSchema.optional(),
  sort: z.number().int().min(0).max(100000).optional(),
});
export type RoleUpdateRequest = z.infer<typeof roleUpdateSchema>;

/** `POST roles/getRoleList` body. */
export const roleListRequestSchema = pageRequestSchema.extend({ keyword: z.string().trim().max(100).optional() });

/**
 * `PUT roles/permission` body: the menus a role sees and the permissions it holds beyond those
 * of its menus. The role's permissions become `permissions` plus every permission of the chosen
 * menus (and their ancestors), so a menu and the calls behind it go together.
 */
export const rolePermissionRequestSchema = z.object({
  roleId: idSchema,
  menuIds: z.array(idSchema).max(500),
  permissions: z.array(z.string().regex(/^[a-z]+:[a-z]+$/, 'validation.invalid')).max(200).default([]),
});
export type RolePermissionRequest = z.infer<typeof rolePermissionRequestSchema>;

/** A role as the admin screens see it. */
export interface RoleItem {
  id: string;
  code: string;
  name: string;
  /** `null`: shared by every tenant (the seeded roles). */
  tenantId: string | null;
  isSystem: boolean;
  permissions: string[];
  sort: number;
  createdAt: string;
}

/** `GET roles/menuIds/{id}` reply data. */
export interface RoleMenuIdsResponse {
  roleId: string;
  menuIds: string[];
  permissions: string[];
}

/* ----------------------------------------------------------------------------- menus */

/** `POST menus` body. */
export const menuCreateSchema = z.object({
  parentId: idSchema.nullable().default(null),
  code: z.string().min(2).max(64).regex(/^[a-z][a-z0-9.-]*$/, 'validation.invalid'),
  /** A translation key (`menu.x`) or a plain label. */
  name: nameSchema,
  path: z.string().max(255).regex(/^\/[A-Za-z0-9/_-]*$/, 'validation.invalid').nullable().default(null),
  icon: z.string().max(64).nullable().default(null),
  sort: z.number().int().min(0).max(100000).default(100),
  permission: z.string().regex(/^[a-z]+:[a-z]+$/, 'validation.invalid').nullable().default(null),
  hidden: z.boolean().default(false),
});
export type MenuCreateRequest = z.infer<typeof menuCreateSchema>;

/** `PUT menus/{id}` body. */
export const menuUpdateSchema = z.object({
  parentId: idSchema.nullable().optional(),
  name: nameSchema.optional(),
  path: menuCreateSchema.shape.path.removeDefault().optional(),
  icon: z.string().max(64).nullable().optional(),
  sort: z.number().int().min(0).max(100000).optional(),
  permission: menuCreateSchema.shape.permission.removeDefault().optional(),
  hidden: z.boolean().optional(),
});
export type MenuUpdateRequest = z.infer<typeof menuUpdateSchema>;

/** `GET menus/treePage` query. */
export const menuTreePageRequestSchema = pageRequestSchema.extend({ keyword: z.string().trim().max(100).optional() });

/** A menu row (list) or node (tree) of the admin screens. */
export interface MenuItem {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  path: string | null;
  icon: string | null;
  sort: number;
  permission: string | null;
  type: 'group' | 'page';
  hidden: boolean;
  children?: MenuItem[];
}

/* ----------------------------------------------------------------------------- organisations */

/** `POST orgs` body. */
export const orgCreateSchema = z.object({
  parentId: idSchema.nullable().default(null),
  /** System admins only: an organisation of that tenant (default the caller's). */
  tenantId: idSchema.optional(),
  name: nameSchema,
  sort: z.number().int().min(0).max(100000).default(100),
});
export type OrgCreateRequest = z.infer<typeof orgCreateSchema>;

/** `GET orgs/tree` and `GET orgs/list` query. */
export const orgListRequestSchema = z.object({ tenantId: idSchema.optional() });

/** `PUT orgs/{id}` body. */
export const orgUpdateSchema = z.object({
  parentId: idSchema.nullable().optional(),
  name: nameSchema.optional(),
  sort: z.number().int().min(0).max(100000).optional(),
});
export type OrgUpdateRequest = z.infer<typeof orgUpdateSchema>;

/** An organisation of the caller's tenant. */
export interface OrgItem {
  id: string;
  tenantId: string;
  parentId: string | null;
  name: string;
  sort: number;
  /** Users directly in it. */
  userCount: number;
  children?: OrgItem[];
}

/* ----------------------------------------------------------------------------- tenants */

/** Tenant code: lower-case letters, digits, dash. */
export const tenantCodeSchema = z.string().min(2).max(64).regex(/^[a-z0-9][a-z0-9-]*$/, 'validation.invalid');

/** Quotas of a tenant; `null`: no limit beyond the server's own. */
export const tenantQuotaSchema = z.object({
  /** Storage of all the tenant's users together, bytes (at most the 500 GB cap). */
  storageQuotaBytes: z.number().int().min(0).max(500 * 1024 ** 3).nullable().default(null),
  /** Trainings running at once. */
  maxTrainings: z.number().int().min(0).max(10000).nullable().default(null),
  /** Model services running at once. */
  maxServices: z.number().int().min(0).max(10000).nullable().default(null),
});

/** `tenant/addTenant` body. */
export const tenantCreateSchema = tenantQuotaSchema.extend({
  code: tenantCodeSchema,
  name: nameSchema,
  /** Sign-ups whose e-mail ends with `@<domain>` join this tenant. */
  domain: z.string().trim().toLowerCase().max(100).regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'validation.invalid').nullable().default(null),
  status: z.enum(['enabled', 'disabled']).default('enabled'),
});
export type TenantCreateRequest = z.infer<typeof tenantCreateSchema>;

/** `tenant/uplTenant` body. */
export const tenantUpdateSchema = z.object({
  id: idSchema,
  name: nameSchema.optional(),
  domain: tenantCreateSchema.shape.domain.removeDefault().optional(),
  status: z.enum(['enabled', 'disabled']).optional(),
  storageQuotaBytes: tenantQuotaSchema.shape.storageQuotaBytes.removeDefault().optional(),
  maxTrainings: tenantQuotaSchema.shape.maxTrainings.removeDefault().optional(),
  maxServices: tenantQuotaSchema.shape.maxServices.removeDefault().optional(),
  /** `true`: make a new invitation code (the old link stops working). */
  renewInvite: z.boolean().optional(),
});
export type TenantUpdateRequest = z.infer<typeof tenantUpdateSchema>;

/** `tenant/page` body. */
export const tenantPageRequestSchema = pageRequestSchema.extend({ keyword: z.string().trim().max(100).optional() });

/** A tenant as the admin screens see it. */
export interface TenantItem {
  id: string;
  code: string;
  name: string;
  status: 'enabled' | 'disabled';
  domain: string | null;
  /** Sign-up link parameter `invite=<code>`; only for admins of the tenant. */
  inviteCode: string | null;
  storageQuotaBytes: number | null;
  maxTrainings: number | null;
  maxServices: number | null;
  userCount: number;
  createdAt: string;
}

