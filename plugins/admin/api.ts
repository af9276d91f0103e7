/** Administration calls (spec platform §7 "Admin": users, roles, menus, orgs, tenant) on the base api. */
import type {
  AddUserRequest,
  AdminUserListItem,
  CheckNameAndPhoneResponse,
  MenuCreateRequest,
  MenuItem,
  MenuUpdateRequest,
  OrgItem,
  Page,
  RoleItem,
  RoleMenuIdsResponse,
  TemporaryPasswordResponse,
  TenantItem,
  UpdateUserRequest,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** Query of the user list. */
export interface UserPageQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  status?: 'enabled' | 'disabled';
  roleId?: string;
  orgId?: string;
  tenantId?: string;
}

const USERS = 'AdminUser';
const ROLES = 'AdminRole';
const MENUS = 'AdminMenu';
const ORGS = 'AdminOrg';
const TENANTS = 'AdminTenant';

export const adminEndpoints = (build: PluginEndpointBuilder) => ({
  'admin/users': build.query<Page<AdminUserListItem>, UserPageQuery>({ query: (body) => ({ url: 'users/getUserList', body }), providesTags: [USERS] }),
  'admin/addUser': build.mutation<TemporaryPasswordResponse, AddUserRequest>({ query: (body) => ({ url: 'users/addUser', body }), invalidatesTags: [USERS, ORGS, TENANTS] }),
  'admin/updateUser': build.mutation<{ userId: string }, UpdateUserRequest>({ query: (body) => ({ url: 'users/updateUser', body }), invalidatesTags: [USERS, ORGS, TENANTS] }),
  'admin/deleteUser': build.mutation<{ userId: string }, { userId: string }>({ query: (body) => ({ url: 'users/deleteUser', body }), invalidatesTags: [USERS, ORGS, TENANTS] }),
  'admin/stopUser': build.mutation<unknown, { userId: string }>({ query: (body) => ({ url: 'users/stopUser', body }), invalidatesTags: [USERS] }),
  'admin/startUser': build.mutation<unknown, { userId: string }>({ query: (body) => ({ url: 'users/startUser', body }), invalidatesTags: [USERS] }),
  'admin/resetPassword': build.mutation<TemporaryPasswordResponse, { userId: string }>({ query: (body) => ({ url: 'users/resetPassword', body }), invalidatesTags: [USERS] }),
  'admin/checkNameAndPhone': build.mutation<CheckNameAndPhoneResponse, { username?: string; mobile?: string; exceptUserId?: string }>({
    query: (body) => ({ url: 'users/checkNameAndPhone', body }),
  }),

  'admin/roles': build.query<RoleItem[], void>({ query: () => ({ url: 'roles/list', method: 'GET' }), providesTags: [ROLES] }),
  'admin/createRole': build.mutation<RoleItem, { code: string; name: string; sort?: number; tenantId?: string | null }>({
    query: (body) => ({ url: 'roles', body }),
    invalidatesTags: [ROLES],
  }),
  'admin/updateRole': build.mutation<RoleItem, { id: string; code?: string; name?: string; sort?: number }>({
    query: ({ id, ...body }) => ({ url: `roles/${id}`, method: 'PUT', body }),
    invalidatesTags: [ROLES],
  }),
  'admin/deleteRole': build.mutation<unknown, { id: string }>({ query: ({ id }) => ({ url: `roles/${id}`, method: 'DELETE' }), invalidatesTags: [ROLES] }),
  'admin/roleMenus': build.query<RoleMenuIdsResponse, string>({ query: (id) => ({ url: `roles/menuIds/${id}`, method: 'GET' }), providesTags: [ROLES] }),
  'admin/setRolePermission': build.mutation<RoleMenuIdsResponse, { roleId: string; menuIds: string[]; permissions: string[] }>({
    query: (body) => ({ url: 'roles/permission', method: 'PUT', body }),
    invalidatesTags: [ROLES, 'User'],
  }),

  'admin/menuTree': build.query<MenuItem[], void>({ query: () => ({ url: 'menus/tree', method: 'GET' }), providesTags: [MENUS] }),
  'admin/createMenu': build.mutation<MenuItem, Partial<MenuCreateRequest> & { code: string; name: string }>({
    query: (body) => ({ url: 'menus', body }),
    invalidatesTags: [MENUS, 'User'],
  }),
  'admin/updateMenu': build.mutation<MenuItem, MenuUpdateRequest & { id: string }>({
    query: ({ id, ...body }) => ({ url: `menus/${id}`, method: 'PUT', body }),
    invalidatesTags: [MENUS, 'User'],
  }),
  'admin/deleteMenu': build.mutation<unknown, { id: string }>({ query: ({ id }) => ({ url: `menus/${id}`, method: 'DELETE' }), invalidatesTags: [MENUS, 'User'] }),

  'admin/orgTree': build.query<OrgItem[], { tenantId?: string }>({
    query: ({ tenantId }) => ({ url: tenantId ? `orgs/tree?tenantId=${tenantId}` : 'orgs/tree', method: 'GET' }),
    providesTags: [ORGS],
  }),
  'admin/orgList': build.query<OrgItem[], { tenantId?: string }>({
    query: ({ tenantId }) => ({ url: tenantId ? `orgs/list?tenantId=${tenantId}` : 'orgs/list', method: 'GET' }),
    providesTags: [ORGS],
  }),
  'admin/createOrg': build.mutation<OrgItem, { name: string; parentId?: string | null; tenantId?: string }>({ query: (body) => ({ url: 'orgs', body }), invalidatesTags: [ORGS] }),
  'admin/updateOrg': build.mutation<OrgItem, { id: string; name?: string; parentId?: string | null }>({
    query: ({ id, ...body }) => ({ url: `orgs/${id}`, method: 'PUT', body }),
    invalidatesTags: [ORGS],
  }),
  'admin/deleteOrg': build.mutation<unknown, { id: string }>({ query: ({ id }) => ({ url: `orgs/${id}`, method: 'DELETE' }), invalidatesTags: [ORGS] }),

  'admin/tenants': build.query<TenantItem[], void>({ query: () => ({ url: 'tenant/list', method: 'GET' }), providesTags: [TENANTS] }),
  'admin/tenantPage': build.query<Page<TenantItem>, { page: number; pageSize: number; keyword?: string }>({
    query: (body) => ({ url: 'tenant/page', body }),
    providesTags: [TENANTS],
  }),
  'admin/addTenant': build.mutation<TenantItem, Record<string, unknown>>({ query: (body) => ({ url: 'tenant/addTenant', body }), invalidatesTags: [TENANTS] }),
  'admin/updateTenant': build.mutation<TenantItem, Record<string, unknown> & { id: string }>({ query: (body) => ({ url: 'tenant/uplTenant', body }), invalidatesTags: [TENANTS] }),
  'admin/deleteTenant': build.mutation<unknown, { id: string }>({ query: ({ id }) => ({ url: `tenant/${id}`, method: 'DELETE' }), invalidatesTags: [TENANTS] }),
});

/** The typed admin api (hooks per endpoint). */
export const adminApi = definePluginApi('admin', adminEndpoints, { tagTypes: [USERS, ROLES, MENUS, ORGS, TENANTS] });
