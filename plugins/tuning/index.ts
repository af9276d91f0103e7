/**
 * The tuning plugin (spec workflow §2.6): parameter searches (list, tuning form, detail with the
 * best parameters found; the trainings kit's screen). Manifest only.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const panels = () => import('./panels/ParametersPanel');
const signedIn = (c: WhenContext) => c.signedIn;

export const tuningPlugin = definePlugin({
  id: 'tuning',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  routes: [
    { path: '/workflow/parameter', titleKey: 'panels.parameter', panels: ['tuning.list'] },
    { path: '/workflow/parameter/train', titleKey: 'panels.parameterTrain', panels: ['tuning.train'] },
    { path: '/project/parameter', titleKey: 'panels.parameter', panels: ['tuning.list'] },
  ],
  panels: [
    { id: 'tuning.list', titleKey: 'panels.parameter', icon: 'settings', load: () => panels().then((m) => m.ParametersPanel) },
    { id: 'tuning.train', titleKey: 'panels.parameterTrain', icon: 'settings', load: () => panels().then((m) => m.ParameterTrainPanel) },
  ],
  commands: [
    openPageCommand({ id: 'tuning.new', titleKey: 'commands.newParameter', to: '/workflow/parameter/train', icon: 'search-template', keywords: ['parameter', 'tuning', 'search', 'new'], when: signedIn }),
  ],
});
