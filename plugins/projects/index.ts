/**
 * The projects plugin: the project list (`/all-project`) with favourites, colour tags, search,
 * create/edit/delete, collaboration and share links; the solutions of the selected project;
 * recent activity; and the read-only view a share link opens (`/shared-project`). Manifest
 * only: panels load with `import()`.
 */
import { definePlugin, navigationServiceRef } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { projectsEndpoints } from './api';

export const projectsPlugin = definePlugin({
  id: 'projects',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: projectsEndpoints,
  routes: [
    {
      path: '/all-project',
      titleKey: 'title',
      panels: [
        'projects.list',
        { panel: 'projects.solutions', direction: 'right', size: 420 },
        { panel: 'projects.activity', direction: 'below', size: 260 },
      ],
    },
    { path: '/shared-project', titleKey: 'sharedTitle', load: () => import('./panels/SharedProjectPanel').then((m) => m.SharedProjectPanel) },
  ],
  panels: [
    { id: 'projects.list', titleKey: 'listPanel', icon: 'projects', load: () => import('./panels/ProjectListPanel').then((m) => m.ProjectListPanel) },
    { id: 'projects.solutions', titleKey: 'solutionsPanel', icon: 'folder-open', load: () => import('./panels/SolutionListPanel').then((m) => m.SolutionListPanel) },
    { id: 'projects.activity', titleKey: 'activityPanel', icon: 'history', load: () => import('./panels/ActivityPanel').then((m) => m.ActivityPanel) },
  ],
  menuItems: [{ id: 'projects.all', titleKey: 'menu', location: 'side', icon: 'projects', to: '/all-project', order: 20 }],
  // Mod+P (VS Code's quick open): the project list, its search box focused.
  commands: [
    {
      id: 'projects.quickOpen',
      titleKey: 'commands.quickOpen',
      icon: 'projects',
      keybinding: 'Mod+P',
      keywords: ['projects', 'quick open', 'open project'],
      when: (c) => c.signedIn,
      opens: '/all-project',
      run: ({ services }) => services.get(navigationServiceRef).navigate('/all-project', { search: { focus: 'search' } }),
    },
  ],
});
