/** Typed translations of the pattern plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const usePatternT = createUseT<typeof zhCN>('pattern');
