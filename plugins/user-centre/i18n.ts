/** Typed translations of the user-centre plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useUserCentreT = createUseT<typeof zhCN>('user-centre');
