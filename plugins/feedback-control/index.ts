/**
 * The feedback-control plugin (spec workflow §2, §3 "feedback-control trial", §7 `pidData`):
 * `/gfs` -> `/gfs/online-trial` (check a control log, learn encoder + response model + PID
 * controller in the browser's compute worker, compare with the logged actions, download, save),
 * `/gfs/model` (saved results), `/gfs/encoder` and the public `/gfs-encoder` (encoder and
 * response model only). Manifest only: panels load with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { gfsEndpoints } from './api';

const signedIn = (c: WhenContext) => c.signedIn;

/** Commands of the area (palette, side menu). */
export const GFS_COMMANDS = [
  openPageCommand({ id: 'feedback-control.open-trial', titleKey: 'commands.trial', to: '/gfs/online-trial', icon: 'automatic-updates', keywords: ['feedback control', 'pid', 'controller', 'gfs', 'trial', 'webgpu'], when: signedIn }),
  openPageCommand({ id: 'feedback-control.open-model', titleKey: 'commands.model', to: '/gfs/model', icon: 'saved', keywords: ['feedback control', 'pid', 'saved results', 'gfs'], when: signedIn }),
  openPageCommand({ id: 'feedback-control.open-encoder', titleKey: 'commands.encoder', to: '/gfs/encoder', icon: 'layers', keywords: ['encoder', 'response model', 'gfs'], when: signedIn }),
];

export const feedbackControlPlugin = definePlugin({
  id: 'feedback-control',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: gfsEndpoints,
  routes: [
    { path: '/gfs', titleKey: 'title', load: () => import('./panels/GfsRedirect').then((m) => m.GfsRedirect) },
    { path: '/gfs/online-trial', titleKey: 'trialTitle', panels: ['feedback-control.trial'] },
    { path: '/gfs/model', titleKey: 'modelTitle', panels: ['feedback-control.model'] },
    { path: '/gfs/encoder', titleKey: 'encoderTitle', panels: ['feedback-control.encoder'] },
    { path: '/gfs-encoder', titleKey: 'publicEncoderTitle', public: true, load: () => import('./panels/EncoderPanel').then((m) => m.PublicEncoderPage) },
  ],
  panels: [
    { id: 'feedback-control.trial', titleKey: 'panels.trial', icon: 'automatic-updates', load: () => import('./panels/TrialPanel').then((m) => m.TrialPanel) },
    { id: 'feedback-control.model', titleKey: 'panels.model', icon: 'saved', load: () => import('./panels/ModelPanel').then((m) => m.ModelPanel) },
    { id: 'feedback-control.encoder', titleKey: 'panels.encoder', icon: 'layers', load: () => import('./panels/EncoderPanel').then((m) => m.EncoderPanel) },
  ],
  commands: GFS_COMMANDS,
  menuItems: [
    { id: 'feedback-control.menu', titleKey: 'menu.gfs', location: 'side', icon: 'automatic-updates', to: '/gfs/online-trial', order: 80, activeOn: ['/gfs', '/gfs/model', '/gfs/encoder'] },
  ],
});
