/** Typed translations of the dashboard plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useDashboardT = createUseT<typeof zhCN>('dashboard');
