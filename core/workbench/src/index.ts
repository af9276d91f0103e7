/**
 * `@decisio/workbench`: the browser shell. Most code should not import this package: plugins
 * use `@decisio/sdk-plugin`. Exported for the app entry, tools and tests.
 */
export { createWorkbench, WorkbenchRoot, type Workbench, type WorkbenchOptions } from './host/workbench';
export { PluginHost, type Owned, type PluginHostOptions } from './host/plugin-host';
export { orderPlugins, PluginHostError, type PluginHostErrorKind } from './host/order';
export { createHostBaseQuery, type HostBaseQueryDeps } from './api/base-query';
export { buildRouter, SIGNED_IN_HOME, SIGNED_OUT_HOME, type RouterDeps } from './router/build-router';
export { LAYOUT_SCHEMA_VERSION, LAYOUT_MIGRATIONS, layoutStorageKey, parseLayout, readLayout, writeLayout } from './layout/layout-store';
export { WORKBENCH_LOCALES, LOCALE_STORAGE_KEY } from './i18n/i18n';
export { THEME_STORAGE_KEY } from './theme/theme-service';
