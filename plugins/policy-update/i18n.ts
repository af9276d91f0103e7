/** Typed translations of the policy-update plugin: its own bundle, then the trainings kit's (solution choice, common words). */
import { createUseT } from '@decisio/sdk-plugin';
import { TRAININGS_NS, type TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import type zhCN from './locales/zh-CN.json';

export const usePolicyUpdateT = createUseT<typeof zhCN & TrainingsBundle>('policy-update', [TRAININGS_NS]);
