/** Typed translations of the trainings kit (namespace `trainings`, keys checked against zh-CN). */
import { createUseT } from '../react';
import type zhCN from './locales/zh-CN.json';

/** The kit's bundle type: area plugins type their hook as `their bundle & TrainingsBundle`. */
export type TrainingsBundle = typeof zhCN;

export const useTrainingsT = createUseT<TrainingsBundle>('trainings');
