/** Typed translations of the workflow plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useWorkflowT = createUseT<typeof zhCN>('workflow');
