import { z } from 'zod';
import { pageRequestSchema } from '../admin/schemas';
import { LIMITS } from '../common/limits';
import type { DecisionTally, ReportComparison } from './compare';

export * from './measures';
export * from './compare';

/**
 * Analysis reports (spec workflow §3 "Analysis report", §4 report states, §5 "Report", §7
 * `Report`): two finished decision deductions of a solution compared, next to the real totals
 * (revenue, orders, cost) the user enters.
 */

/** Report types: the coupon and electricity scenarios have an online report view with their terms. */
export const REPORT_TYPES = ['coupon', 'electricity', 'general'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Report states (spec workflow §4): created, analysing, finished, failed. */
export const REPORT_STATUSES = ['created', 'analysing', 'finished', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_LIMITS = {
  nameMax: 50,
  remarkMax: 200,
  integerDigits: LIMITS.reportIntegerDigits,
  decimals: LIMITS.reportDecimals,
} as const;

/** A real total: a non-negative decimal with up to 15 integer digits and 2 decimals (spec §5, §9). */
export const REPORT_AMOUNT = new RegExp(`^\\d{1,${REPORT_LIMITS.integerDigits}}(\\.\\d{1,${REPORT_LIMITS.decimals}})?$`);

/** True when `value` (as typed) is a valid real total. */
export function isReportAmount(value: string): boolean {
  return REPORT_AMOUNT.test(value.trim());
}

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');
const amount = z
  .union([z.string(), z.number()], { message: 'validation.required' })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => v.length > 0, 'validation.required')
  .refine((v) => REPORT_AMOUNT.test(v), 'validation.invalid');
const name = z.string({ message: 'validation.required' }).trim().min(1, 'validation.required').max(REPORT_LIMITS.nameMax, 'validation.tooLong');

/** `createAnalysisReport`: the two decisions must differ (`reportDecisionsSame`) and be finished decision deductions of the solution. */
export const analysisReportCreateSchema = z.object({
  solutionId: id,
  name,
  type: z.enum(REPORT_TYPES).default('general'),
  remark: z.string().max(REPORT_LIMITS.remarkMax, 'validation.tooLong').optional().default(''),
  decisionAId: id,
  decisionBId: id,
  realRevenue: amount,
  realOrders: amount,
  realCost: amount,
});
export type AnalysisReportCreateRequest = z.input<typeof analysisReportCreateSchema>;

/** `getAnalysisReportDetail`, `getAnalysisReportView`, `deleteAnalysisReport`. */
export const analysisReportIdSchema = z.object({ id });
export type AnalysisReportIdRequest = z.input<typeof analysisReportIdSchema>;

/** `updateAnalysisReportName`. */
export const analysisReportRenameSchema = z.object({ id, name });
export type AnalysisReportRenameRequest = z.input<typeof analysisReportRenameSchema>;

/** `getAnalysisReportList`: the reports of a project (optionally one solution), newest first. */
export const analysisReportListSchema = pageRequestSchema.extend({
  projectId: id,
  solutionId: id.optional(),
  keyword: z.string().trim().max(REPORT_LIMITS.nameMax).optional(),
  status: z.enum(REPORT_STATUSES).optional(),
});
export type AnalysisReportListRequest = z.input<typeof analysisReportListSchema>;

/** A report as listed and in its detail. Real totals are decimal strings as entered (normalised). */
export interface AnalysisReport {
  id: string;
  projectId: string;
  solutionId: string;
  name: string;
  type: ReportType;
  status: ReportStatus;
  remark: string;
  decisionAId: string;
  decisionBId: string;
  decisionAName: string | null;
  decisionBName: string | null;
  realRevenue: string;
  realOrders: string;
  realCost: string;
  error: string | null;
  creatorId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a finished decision deduction measured (its stored result). */
export interface ReportDecisionFigures {
  id: string;
  name: string;
  policyId: string | null;
  /** Steps of each rollout window. */
  horizon: number;
  /** Mean return of the policy over the horizon (sum of rewards per window, averaged over windows). */
  totalReward: number;
  /** `totalReward / horizon`. */
  meanRewardPerStep: number;
  /** Mean return of the data's own behaviour (the cloned behaviour policy) in the same windows. */
  behaviourReward: number | null;
  /** `totalReward - behaviourReward`. */
  upliftOverBehaviour: number | null;
  /** The deduction's score as stored. */
  score: number | null;
  /** The deduction's initial dataset (null: the environment's data). */
  datasetId?: string | null;
  /** Per-field means and measures the deduction tallied (absent for deductions run before they were kept). */
  tally?: DecisionTally | null;
}

/** `getAnalysisReportView`: the measured figures (null until the analysis finished). */
export interface AnalysisReportView {
  report: AnalysisReport;
  /** Term keys of the scenario for the real totals: `coupon`, `electricity` or `general`. */
  terms: ReportType;
  real: { revenue: string; orders: string; cost: string };
  decisions: { a: ReportDecisionFigures; b: ReportDecisionFigures } | null;
  /** B minus A, for each measured figure both decisions have. */
  difference: { totalReward: number; meanRewardPerStep: number; behaviourReward: number | null; upliftOverBehaviour: number | null } | null;
  /**
   * Both decisions against the data as logged, per-field means, the scenario's measures and the
   * real totals projected by them (`compareDecisions`); null until finished, or when a decision
   * ran before deductions kept their tallies.
   */
  comparison: ReportComparison | null;
  analysedAt: string | null;
}

/**
 * Business decision (spec workflow §2 `/project/business-decision`): a chosen policy decides
 * every row of a business dataset in the background; the result csv is downloadable.
 */
export const BUSINESS_DECISION_STATES = ['running', 'success', 'failure'] as const;
export type BusinessDecisionState = (typeof BUSINESS_DECISION_STATES)[number];

/** `businessDecision/create`. */
export const businessDecisionCreateSchema = z.object({ policyId: id, datasetId: id });
export type BusinessDecisionCreateRequest = z.input<typeof businessDecisionCreateSchema>;

/** `businessDecision/get`, `businessDecision/delete`. */
export const businessDecisionIdSchema = z.object({ id });
export type BusinessDecisionIdRequest = z.input<typeof businessDecisionIdSchema>;

/** `businessDecision/list`: the runs of a project, newest first. */
export const businessDecisionListSchema = pageRequestSchema.extend({ projectId: id });
export type BusinessDecisionListRequest = z.input<typeof businessDecisionListSchema>;

/** One business decision run. */
export interface BusinessDecision {
  id: string;
  projectId: string;
  solutionId: string;
  policyId: string;
  policyName: string;
  datasetId: string;
  datasetName: string;
  state: BusinessDecisionState;
  /** 0-1: rows decided / rows of the dataset. */
  progress: number;
  rowsTotal: number;
  rowsDone: number;
  /** Rows whose input was refused (their `error` cell says why). */
  rowsFailed: number;
  error: string | null;
  /** `GET /api/businessDecision/download?id=` once `success`. */
  downloadUrl: string | null;
  createdAt: string;
  endedAt: string | null;
}
