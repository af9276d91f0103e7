/** Typed translations of the electric demo (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useElectricT = createUseT<typeof zhCN>('electric');
