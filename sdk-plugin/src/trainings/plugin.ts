/**
 * The manifest of the trainings kit: its translations (namespace `trainings`) and calls. Light
 * (no component code): the app registers it beside the area plugins that build on the kit
 * (environment, policy, tuning, deduction, scheme, reward, hyperparameters, project log), and
 * their tests pass it to `createTestHost`. Its components come from `@decisio/sdk-plugin/trainings`.
 */
import { definePlugin } from '../plugin';
import { trainingsEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

/** Namespace the area plugins pass as their translation fallback (`createUseT(id, [TRAININGS_NS])`). */
export const TRAININGS_NS = 'trainings';

export const trainingsKitPlugin = definePlugin({
  id: TRAININGS_NS,
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: trainingsEndpoints,
});

export type { TrainingsBundle } from './i18n';
