/** Typed translations of the scheme plugin: its own bundle, then the trainings kit's (common words, states, forms). */
import { createUseT } from '@decisio/sdk-plugin';
import { TRAININGS_NS, type TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import type zhCN from './locales/zh-CN.json';

export const useSchemeT = createUseT<typeof zhCN & TrainingsBundle>('scheme', [TRAININGS_NS]);
