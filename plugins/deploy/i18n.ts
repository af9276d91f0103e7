/** Typed translations of the deploy plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useDeployT = createUseT<typeof zhCN>('deploy');
