import type { ModelServiceDetail, ModelServiceItem, ModelServiceRecord, ModelServiceWithToken } from '@decisio/domain';
import type { ServingIO } from './io';
import type { CallRecord, ServiceRecord } from './service';

/** The access address of a service as seen from `origin` (`http://host:port`). */
export function accessAddressOf(origin: string, serviceId: string): string {
  return `${origin}/api/decide/${serviceId}`;
}

/** A row of `modeldeploy/queryPage` (and the base of the other replies); `now` (epoch ms) tells whether the token has expired. */
export function presentService(s: ServiceRecord, origin: string, now: number): ModelServiceItem {
  return {
    id: s.id,
    serviceId: s.id,
    serviceName: s.name,
    description: s.description,
    projectId: s.projectId,
    solutionId: s.solutionId,
    policyId: s.policyId,
    policyName: s.policyName,
    status: s.status,
    failureReason: s.failureReason,
    accessAddress: accessAddressOf(origin, s.id),
    accessTokenHint: s.tokenHint,
    tokenExpiresAt: s.tokenExpiresAt ? s.tokenExpiresAt.toISOString() : null,
    tokenExpired: s.tokenExpiresAt !== null && s.tokenExpiresAt.getTime() <= now,
    keepPayloads: s.keepPayloads,
    createdBy: s.createdBy,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** `modeldeploy/create` and `modeldeploy/rotateToken`: the service with its token, shown once. */
export function presentServiceWithToken(s: ServiceRecord, token: string, origin: string, now: number): ModelServiceWithToken {
  return { ...presentService(s, origin, now), accessToken: token };
}

/** `modeldeploy/queryDetail`. */
export function presentDetail(s: ServiceRecord, io: ServingIO | null, totals: { calls: number; failures: number }, origin: string, now: number): ModelServiceDetail {
  return { ...presentService(s, origin, now), inputs: io ? io.describeInputs() : null, outputs: io ? io.describeOutputs() : null, totals };
}

/** A row of `modeldeploy/queryModelServiceRecordsPage`. */
export function presentRecord(r: CallRecord): ModelServiceRecord {
  return {
    decisionId: r.id,
    startTime: r.startedAt.toISOString(),
    endTime: r.endedAt ? r.endedAt.toISOString() : null,
    durationMs: r.durationMs,
    requestIp: r.ip,
    result: r.result,
    rows: r.rows,
    errorCode: r.errorCode,
    inputs: (r.inputs ?? null) as ModelServiceRecord['inputs'],
    decisions: (r.decisions ?? null) as ModelServiceRecord['decisions'],
    outcome: (r.outcome ?? null) as ModelServiceRecord['outcome'],
    outcomeTime: r.outcomeAt ? r.outcomeAt.toISOString() : null,
  };
}
