/** Typed translations of the modelling plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useModellingT = createUseT<typeof zhCN>('modelling');
