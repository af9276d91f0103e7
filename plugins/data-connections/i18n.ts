/** Typed translations of the data-connections plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useConnectionsT = createUseT<typeof zhCN>('data-connections');
