/** Typed translations of the messages plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useMessagesT = createUseT<typeof zhCN>('messages');
