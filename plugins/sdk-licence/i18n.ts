/** Typed translations of the SDK-licence plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useLicenceT = createUseT<typeof zhCN>('sdk-licence');
