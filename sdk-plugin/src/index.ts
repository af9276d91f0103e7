/**
 * `@decisio/sdk-plugin`: the contract every area of Decisio is written against.
 *
 * - {@link definePlugin}: a manifest of routes, panels, menu items, commands, settings,
 *   locales, endpoints and templates, plus an optional `activate(ctx)`.
 * - {@link createServiceRef}: typed services that plugins provide and require.
 * - {@link baseApi} / {@link definePluginApi}: the single RTK Query api and its plugin endpoints.
 * - React hooks: {@link useService}, {@link createUseT}, {@link useCurrentUser},
 *   {@link useProjectLink}, {@link useProjectEditRight}, {@link useNavigate}, {@link useNotify}, ...; {@link BusyButton}, a
 *   `loading` button that takes back the focus it dropped when it is done, and {@link Dialog},
 *   Blueprint's dialog that, rendered only while open, gives the focus back to its opener.
 * - Paged lists: {@link useListSearch}, {@link Pager}; CRUD screens: {@link CrudScreen},
 *   {@link CrudFormDialog}, {@link CrudForm}, {@link CrudConfirm}; uploads: {@link useUploadTransport}.
 * - Disposables and events ({@link Emitter}, `onDidX`).
 *
 * Tests use `@decisio/sdk-plugin/testing` (`createTestHost`, `renderPanel`).
 * See `sdk-plugin/README.md` for a worked example.
 */
export * from './lifecycle';
export * from './services';
export * from './plugin';
export * from './api';
export * from './locales';
export * from './project-link';
export * from './project-right';
export * from './commands';
export * from './react';
export * from './ui';
export * from './verification';
export * from './code-editor';
export * from './terminal';
export * from './upload';
export * from './upload-transport';
export * from './list';
export * from './crud';
export * from './page';
export * from './numeric-input';
export * from './data-worker';
export * from './compute-worker';
export * from './format';
export * from './unsaved';
