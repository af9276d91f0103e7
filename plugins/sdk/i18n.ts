/** Typed translations of the public SDK pages (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useSdkT = createUseT<typeof zhCN>('sdk');
