/** Typed translations of the account plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useAccountT = createUseT<typeof zhCN>('account');
