/** System log calls (spec platform §7 "Admin": `POST logs/page`, `DELETE logs/delete`) on the base api. */
import type { LogDeleteResponse, LogFilter, LogItem, LogPageRequest, LogRetention, Page } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const TAG = 'SystemLog';
const RETENTION = 'SystemLogRetention';

export const logsEndpoints = (build: PluginEndpointBuilder) => ({
  'logs/page': build.query<Page<LogItem>, Partial<LogPageRequest>>({ query: (body) => ({ url: 'logs/page', body }), providesTags: [TAG] }),
  'logs/delete': build.mutation<LogDeleteResponse, { ids?: string[]; before?: string }>({
    query: (body) => ({ url: 'logs/delete', method: 'DELETE', body }),
    invalidatesTags: [TAG],
  }),
  'logs/getRetention': build.query<LogRetention, void>({ query: () => ({ url: 'logs/getRetention', method: 'GET' }), providesTags: [RETENTION] }),
  'logs/setRetention': build.mutation<LogRetention, { days: number }>({ query: (body) => ({ url: 'logs/setRetention', body }), invalidatesTags: [RETENTION] }),
});

export const logsApi = definePluginApi('logs', logsEndpoints, { tagTypes: [TAG, RETENTION] });

/** Address of the CSV export of the rows `filter` keeps (the session cookie authorises it). */
export function exportUrl(filter: LogFilter): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/api/logs/export${s ? `?${s}` : ''}`;
}
