/** Typed translations of the storage plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useStorageT = createUseT<typeof zhCN>('storage');
