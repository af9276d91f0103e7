/** Typed translations of the logs plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useLogsT = createUseT<typeof zhCN>('logs');
