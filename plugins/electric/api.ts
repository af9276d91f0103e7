/** The public electric demo calls (`electricShow/*`, server module `electric`) and the contact form. */
import type { ContactRequest, ElectricDecision, ElectricDecisionRequest, ElectricListRequest, ElectricPumpRow, ElectricResult, ElectricSeries, ElectricTemperatureRow } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

export const electricEndpoints = (build: PluginEndpointBuilder) => ({
  'electric/pumps': build.query<ElectricSeries<ElectricPumpRow>, ElectricListRequest>({ query: (body) => ({ url: 'electricShow/getPumpControlList', body }) }),
  'electric/temperatures': build.query<ElectricSeries<ElectricTemperatureRow>, ElectricListRequest>({ query: (body) => ({ url: 'electricShow/getTemperatureControlList', body }) }),
  'electric/decide': build.mutation<ElectricDecision, ElectricDecisionRequest>({ query: (body) => ({ url: 'electricShow/decisionSuperTemperature', body }) }),
  'electric/result': build.query<ElectricResult, { decisionId: string }>({ query: (body) => ({ url: 'electricShow/getSuperTemperatureResult', body }) }),
  'electric/contact': build.mutation<{ id: string }, ContactRequest>({ query: (body) => ({ url: 'workOrder/createContact', body }) }),
});

export const electricApi = definePluginApi('electric', electricEndpoints);
