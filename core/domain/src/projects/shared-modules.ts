import { z } from 'zod';
import { SHARE_MODULES, type ShareModule } from './index';

/**
 * `project/getSharedModule`: what a share link shows of one module the owner chose (spec
 * workflow §4 "Share settings", §6 "A shared project link is read-only across all modules"):
 * per solution, the module's records with their names, states and measured scores (no tokens,
 * no code, no data rows).
 */
export const sharedModuleRequestSchema = z.object({
  token: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid'),
  module: z.enum(SHARE_MODULES, { error: 'validation.invalid' }),
});
export type SharedModuleRequest = z.input<typeof sharedModuleRequestSchema>;

/** One record of a module, as a share link shows it. */
export interface SharedModuleItem {
  id: string;
  name: string;
  /** Training state, service status, report status or deduction kind's state. */
  state: string | null;
  algorithm: string | null;
  /** The measured figure of the record (environment or deduction score, policy or search reward). */
  score: number | null;
  createdAt: string;
}

/** The decision graph as a share link shows it: node names and roles, and how many edges. */
export interface SharedGraph {
  nodes: { name: string; role: string }[];
  edges: number;
}

/** The data access as a share link shows it: table names (not their rows) and fields. */
export interface SharedDataAccess {
  tables: { name: string; columns: number; rows: number | null }[];
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string | null;
  relations: number;
}

export interface SharedModuleView {
  module: ShareModule;
  solutions: {
    solutionId: string;
    name: string;
    items: SharedModuleItem[];
    graph?: SharedGraph | null;
    dataAccess?: SharedDataAccess | null;
  }[];
}
