/**
 * The pattern plugin: the decision-graph editor at `/workflow/pattern` (spec workflow §2, §5).
 * Manifest only: the panel, React Flow, elkjs and Monaco load with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import { patternEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const patternPlugin = definePlugin({
  id: 'pattern',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: patternEndpoints,
  routes: [{ path: '/workflow/pattern', titleKey: 'title', panels: ['pattern.editor'] }],
  panels: [
    {
      id: 'pattern.editor',
      titleKey: 'panel',
      icon: 'graph',
      load: () => import('./panels/PatternPanel').then((m) => m.PatternPanel),
    },
  ],
});
