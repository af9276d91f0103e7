/** Typed translations of the reports plugin: its own bundle, then the trainings kit's (solution choice, common words). */
import { createUseT } from '@decisio/sdk-plugin';
import { TRAININGS_NS, type TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import type zhCN from './locales/zh-CN.json';

export const useReportsT = createUseT<typeof zhCN & TrainingsBundle>('reports', [TRAININGS_NS]);
