/** Typed translations of the environment plugin: its own bundle, then the trainings kit's (common words, states, forms). */
import { createUseT } from '@decisio/sdk-plugin';
import { TRAININGS_NS, type TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import type zhCN from './locales/zh-CN.json';

export const useEnvironmentT = createUseT<typeof zhCN & TrainingsBundle>('environment', [TRAININGS_NS]);
