/** Test helpers of scheduled jobs. */
import type { ScheduleRunItem } from '@decisio/domain';

/**
 * The keys a run of the job history reported that its kind did not declare (`JobKind.report`, as
 * `jobs/history` answers it in `reportFields`): empty when the kind declares all it reports.
 */
export function undeclaredReportKeys(run: Pick<ScheduleRunItem, 'metrics' | 'reportFields'>): string[] {
  const declared = new Set((run.reportFields ?? []).map((f) => f.key));
  return Object.keys(run.metrics).filter((k) => !declared.has(k));
}
