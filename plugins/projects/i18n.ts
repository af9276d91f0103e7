/** Typed translations of the projects plugin (keys checked against zh-CN). */
import { createUseT } from '@decisio/sdk-plugin';
import type zhCN from './locales/zh-CN.json';

export const useProjectsT = createUseT<typeof zhCN>('projects');
