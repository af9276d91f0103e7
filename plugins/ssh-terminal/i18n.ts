/** Typed translations of the SSH terminal plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useSshT = createUseT<typeof zhCN>('ssh-terminal');
