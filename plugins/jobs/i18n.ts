/** Typed translations of the jobs plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useJobsT = createUseT<typeof zhCN>('jobs');
