/** Typed translations of the reward plugin: its own bundle, then the trainings kit's (common words, states, forms). */
import { createUseT } from '@decisio/sdk-plugin';
import { TRAININGS_NS, type TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import type zhCN from './locales/zh-CN.json';

export const useRewardT = createUseT<typeof zhCN & TrainingsBundle>('reward', [TRAININGS_NS]);
