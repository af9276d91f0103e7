/**
 * `@decisio/domain`: the single source of truth for payload shapes, error codes and limits,
 * shared by the server (which validates with these schemas) and the workbench (which types
 * its calls with them).
 */
export * from './errors/codes';
export * from './errors/messages';
export * from './common/envelope';
export * from './common/limits';
export * from './account/schemas';
export * from './account/codes';
export * from './account/user-centre';
export * from './errors/validation';
export * from './account/crypto';
export * from './admin/schemas';
export * from './admin/management';
export * from './admin/route-permissions';
export * from './admin/menu-catalogue';
export * from './logs/schemas';
export * from './schedules/schemas';
export * from './overview/schemas';
export * from './graph/index';
export * from './files/upload';
export * from './files/storage';
export * from './files/data-file';
export * from './datasets/schemas';
export * from './datasets/table-ops';
export * from './modelling/index';
export * from './jobs/index';
export * from './api/calls';
export * from './projects/index';
export * from './projects/templates';
export * from './storehouse/index';
export * from './market/index';
export * from './projects/shared-modules';
export * from './deploy/index';
export * from './connections/schemas';
export * from './reports/index';
export * from './messages/index';
export * from './support/index';
export * from './licences/index';
export * from './gfs/index';
export * from './electric/index';
export * from './ssh/index';
