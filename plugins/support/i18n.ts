/** Typed translations of the support plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useSupportT = createUseT<typeof zhCN>('support');
