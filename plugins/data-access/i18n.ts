/** Typed translations of the data-access plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useDataT = createUseT<typeof zhCN>('data-access');
