/** Typed translations of the model market (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useMarketT = createUseT<typeof zhCN>('market');
