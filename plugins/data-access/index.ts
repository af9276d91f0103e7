/**
 * The data-access plugin: dataset management (`/dataset-manage`: business, simulation and
 * decision datasets; upload of a local csv/npz/h5 checked and previewed in the browser, then
 * sent resumably; import from a data connection; preview and field settings) and the workflow's
 * data-access step (panel `data-access.correlation`: primary table, trajectory, sequence and
 * datetime fields, tables connected on keys).
 *
 * The step is served at the spec's address {@link CORRELATION_PATH}, where the workflow plugin's
 * `/workflow` redirect and side menu lead. `/project/data-source` shows the project's datasets
 * (and the solution's data access in a second tab). Manifest only; panels load with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import { dataAccessEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

/** Where the data-access step is served (spec workflow §2). */
export const CORRELATION_PATH = '/workflow/table-correlation';

export const dataAccessPlugin = definePlugin({
  id: 'data-access',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: dataAccessEndpoints,
  routes: [
    { path: '/dataset-manage', titleKey: 'title', panels: ['data-access.datasets'] },
    { path: CORRELATION_PATH, titleKey: 'correlationTitle', panels: ['data-access.correlation'] },
    // The project's data source (spec platform §2): its datasets, and its solution's data access beside.
    { path: '/project/data-source', titleKey: 'title', panels: ['data-access.datasets', { panel: 'data-access.correlation', direction: 'within' }] },
  ],
  panels: [
    { id: 'data-access.datasets', titleKey: 'panel', icon: 'th', load: () => import('./panels/DatasetsPanel').then((m) => m.DatasetsPanel) },
    { id: 'data-access.correlation', titleKey: 'correlationTitle', icon: 'data-lineage', load: () => import('./panels/CorrelationPanel').then((m) => m.CorrelationPanel) },
  ],
  menuItems: [{ id: 'data-access.menu', titleKey: 'menu', location: 'side', icon: 'th', to: '/dataset-manage', order: 55 }],
});
