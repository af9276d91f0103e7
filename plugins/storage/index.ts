/**
 * The storage plugin: the storage management page (`/storage-manage`) with the space used and
 * free, the file list (download, delete) and resumable uploads with progress. Manifest only;
 * the panel loads with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { storageEndpoints } from './api';

export const storagePlugin = definePlugin({
  id: 'storage',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: storageEndpoints,
  routes: [{ path: '/storage-manage', titleKey: 'title', panels: ['storage.files'] }],
  panels: [{ id: 'storage.files', titleKey: 'panel', icon: 'database', load: () => import('./panels/StoragePanel').then((m) => m.StoragePanel) }],
  menuItems: [{ id: 'storage.manage', titleKey: 'menu', location: 'side', icon: 'database', to: '/storage-manage', order: 80 }],
});
