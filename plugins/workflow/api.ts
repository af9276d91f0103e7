/**
 * Calls the project workbench reads to show a solution's steps (server module `modelling` and
 * `solutions`): the solution, its table correlation and graph, and the lists of schemes,
 * environments, rewards, policies and parameter searches.
 */
import type { SolutionItem } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';
import type { StatefulRow } from './model/steps';

type Ref = { solutionId: string };
type Rows = { rows: StatefulRow[]; total: number };

export const workflowEndpoints = (build: PluginEndpointBuilder) => ({
  'workflow/solution': build.query<SolutionItem, Ref>({ query: (body) => ({ url: 'solution/get', body }) }),
  'workflow/correlation': build.query<{ correlation: unknown }, Ref>({ query: (body) => ({ url: 'solution/getTableCorrelation', body }) }),
  'workflow/pattern': build.query<{ graph: { nodes?: unknown[] } | null }, Ref>({ query: (body) => ({ url: 'solution/getPattern', body }) }),
  'workflow/schemes': build.query<Rows, Ref>({ query: (body) => ({ url: 'scheme/list', body }) }),
  'workflow/simulators': build.query<Rows, Ref>({ query: (body) => ({ url: 'trainSimulator/list', body }) }),
  'workflow/objectives': build.query<Rows, Ref>({ query: (body) => ({ url: 'objective/list', body }) }),
  'workflow/policies': build.query<Rows, Ref>({ query: (body) => ({ url: 'trainPolicy/list', body }) }),
  'workflow/parameters': build.query<Rows, Ref>({ query: (body) => ({ url: 'trainParameter/list', body }) }),
});

export const workflowApi = definePluginApi('workflow', workflowEndpoints);
