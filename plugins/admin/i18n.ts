/** Typed translations of the admin plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useAdminT = createUseT<typeof zhCN>('admin');
