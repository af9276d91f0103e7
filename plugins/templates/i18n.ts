/** Typed translations of the template centre (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useTemplatesT = createUseT<typeof zhCN>('templates');
