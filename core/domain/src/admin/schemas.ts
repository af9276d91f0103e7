import { z } from 'zod';
import type { CurrentUser } from '../account/schemas';

/**
 * Administration calls of the foundation (spec platform §6, §7 "Admin"): permissions, the menu
 * tree a user may see, and the first user-management calls.
 */

/**
 * Permissions checked per call on the server (`requirePermission('users:read')`). A role holds a
 * list of them; the wildcard `'*'` (held by the system role `admin`) grants every permission,
 * including ones added later.
 */
export const PERMISSIONS = [
  'users:read',
  'users:write',
  'roles:read',
  'roles:write',
  'menus:read',
  'menus:write',
  'orgs:read',
  'orgs:write',
  'tenants:read',
  'tenants:write',
  'logs:read',
  'logs:write',
  'jobs:read',
  'jobs:write',
  // Administrators read the outbox of e-mails and SMS (codes in development mode).
  'outbox:read',
  'support:write',
  'licences:write',
  // Administrators read the public contact form's entries (platform-wide) and mark them handled.
  'contacts:read',
  'contacts:write',
  // Areas of the console: the calls behind a side-menu page (see ROUTE_PERMISSIONS).
  'dashboard:use',
  'projects:use',
  'datasets:use',
  'connections:use',
  'templates:use',
  'hyperparameters:use',
  'storage:use',
  // Publishing to the model market for every tenant (issue 20 item 5); tenant admins hold it.
  'market:public',
] as const;
/** A permission name, `<resource>:<read|write|use>`. */
export type Permission = (typeof PERMISSIONS)[number];
/** The permission that grants every other one. */
export const ALL_PERMISSIONS = '*';

/**
 * Codes of the roles seeded on every instance (shared by every tenant): `admin` (system
 * administrator, every permission), `tenant-admin` (administers its own tenant) and `user`.
 */
export const SYSTEM_ROLE = { admin: 'admin', tenantAdmin: 'tenant-admin', user: 'user' } as const;

/** A node of the console menu tree a user may see (`user/getUser` -> `menus`). */
export interface MenuNode {
  id: string;
  /** Stable code, e.g. `dashboard`, `admin.users`. */
  code: string;
  /** Translation key of the label, e.g. `menu.dashboard`. */
  name: string;
  /** Route path, e.g. `/dashboard`; `null` for a group. */
  path: string | null;
  icon: string | null;
  sort: number;
  /** Permission needed to see it, `null` when any role linked to it may. */
  permission: string | null;
  children: MenuNode[];
}

/** `user/getUser` reply data: the current user, their permissions and visible menus. */
export interface GetUserResponse extends CurrentUser {
  permissions: string[];
  menus: MenuNode[];
  /**
   * Paths of every page of the menu catalogue: a side-menu entry going to one of them shows only
   * when `menus` holds it (the roles decide); entries to other paths are not governed by roles.
   */
  menuPaths: string[];
}

/** User status: disabled accounts are blocked (spec platform §4). */
export const USER_STATUSES = ['enabled', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A page request; `page` starts at 1. Query-string values are coerced. */
export const pageRequestSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** A page of rows. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** `users/getUserList` query (GET) or body (POST). */
export const userListRequestSchema = pageRequestSchema.extend({
  keyword: z.string().trim().max(100).optional(),
  status: z.enum(USER_STATUSES).optional(),
});
export type UserListRequest = z.infer<typeof userListRequestSchema>;

/** One row of `users/getUserList`. */
export interface UserListItem {
  userId: string;
  username: string;
  nickname: string | null;
  email: string | null;
  mobile: string | null;
  status: UserStatus;
  tenantId: string;
  roleList: { id: string; code: string; name: string }[];
  createdAt: string;
  /** ISO date until which sign-in is locked after failed attempts (`users/unlockUser` lifts it); null when not locked. */
  signInLockedUntil: string | null;
}

/** A 32-character hex id (uuid without dashes). */
export const idSchema = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');

/** `users/stopUser` and `users/startUser` body. */
export const userIdRequestSchema = z.object({ userId: idSchema });
export type UserIdRequest = z.infer<typeof userIdRequestSchema>;

/** `users/stopUser` and `users/startUser` reply data. */
export interface UserStatusResponse {
  userId: string;
  status: UserStatus;
}
