import { z } from 'zod';

/**
 * `solution/importRevive` (issue 22): a REVIVE folder as it is — its YAML, its data file (an
 * upload of the caller: npz, h5 or csv) and its `reward.py` — becomes the solution's decision
 * graph, a data table of the YAML's fields with its table correlation, and a reward.
 */

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');

/** What to do with the unnamed (index) column of REVIVE's CSV: drop it, or keep it under a name. */
export const reviveIndexColumnSchema = z.union([z.literal('drop'), z.object({ name: z.string().trim().min(1).max(64).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'validation.invalid') })]);

export const reviveImportSchema = z.object({
  solutionId: id,
  /** The YAML text (`metadata.graph`, `metadata.columns`, ...). */
  yaml: z.string().min(1).max(1_000_000),
  /** An uploaded file of the caller (`.npz`, `.h5` / `.hdf5` or `.csv`). */
  dataFileId: id,
  /** Name of the data table to create. */
  tableName: z.string().trim().min(1).max(64),
  /** `reward.py` (a reward named `rewardName` is created when given). */
  reward: z.string().max(1_000_000).optional(),
  rewardName: z.string().trim().min(1).max(20).optional(),
  /** Other files of the folder by name (expert functions: `expert_function.py`). */
  files: z.record(z.string().min(1).max(100), z.string().max(1_000_000)).optional(),
  /** Required when the CSV has an unnamed column (the reply asks for it otherwise). */
  indexColumn: reviveIndexColumnSchema.optional(),
  /** Output nodes to treat as policies (overrides REVIVE's inference). */
  agents: z.array(z.string().min(1).max(100)).max(100).optional(),
});
export type ReviveImportRequest = z.infer<typeof reviveImportSchema>;

/** A field's bounds after the import: the YAML's (kept) or the data's at training. */
export interface ReviveImportBound {
  field: string;
  node: string;
  min: number | null;
  max: number | null;
  from: 'yaml' | 'data';
}

/** The reply: either the question about the unnamed column (nothing created), or what was made and mapped. */
export type ReviveImportReply =
  | { status: 'indexColumn'; position: number; sample: string[] }
  | {
      status: 'imported';
      tableId: string;
      objectiveId: string | null;
      nodes: Array<{ name: string; role: string; fields: string[] }>;
      report: {
        rows: number;
        trajectories: number;
        trajectorySource: 'index' | 'transitions' | 'indexColumn' | 'single';
        mapped: Array<{ from: string; to: string[] }>;
        unused: string[];
        indexColumn: { position: number; action: 'drop' | 'named'; name?: string } | null;
        bounds: ReviveImportBound[];
        warnings: string[];
      };
    };
