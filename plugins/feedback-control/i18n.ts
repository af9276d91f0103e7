/** Typed translations of the feedback-control plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useGfsT = createUseT<typeof zhCN>('feedback-control');
