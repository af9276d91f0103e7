import { isHostWideKind, type JobReportField, type ScheduleItem, type ScheduleKind, type ScheduleRunItem, type ScheduleTrigger } from '@decisio/domain';
import { dateOf } from '../logs/presenters';

function iso(value: unknown): string | null {
  return dateOf(value)?.toISOString() ?? null;
}

function json<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return (text as T) ?? fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A `scheduled_jobs` row as listed; a running schedule that never ran (no tick, no manual run) shows as `waiting`. */
export function presentSchedule(r: Record<string, any>): ScheduleItem {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    cron: r.cron,
    timezone: r.timezone,
    kind: r.kind as ScheduleKind,
    params: json(r.params, {}),
    description: r.description ?? '',
    status: r.status === 'running' && !r.last_run_at ? 'waiting' : r.status,
    hostWide: isHostWideKind(r.kind),
    nextRunAt: iso(r.next_run_at),
    lastRunAt: iso(r.last_run_at),
    createdBy: r.created_by ?? null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/** A run joined with its schedule and its job; `reportFields`: how its kind's report keys read (none when it declares none). */
export function presentRun(r: Record<string, any>, reportFields: readonly JobReportField[] = []): ScheduleRunItem {
  return {
    id: r.id,
    scheduleId: r.schedule_id,
    scheduleName: r.schedule_name,
    kind: r.kind,
    trigger: r.trigger_type as ScheduleTrigger,
    firedAt: iso(r.fired_at)!,
    jobId: r.job_id ?? null,
    state: r.state ?? null,
    metrics: json(r.metrics, {}),
    reportFields: [...reportFields],
    error: r.error ?? null,
    startedAt: iso(r.started_at),
    endedAt: iso(r.ended_at),
    skippedReason: r.skipped_reason ?? null,
  };
}
