/** Typed translations of the template storehouse (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useStorehouseT = createUseT<typeof zhCN>('storehouse');
