/**
 * The user code a modelling job runs: the git checkout a training asks for, and one Python
 * sandbox with the repository's files, the solution's uploaded files, the graph's node
 * functions and the reward (later ones win), in the job's own work directory on the worker.
 */
import { rewardFromFunction, type RewardCallback, type Dataset, type NodeFunctionCall } from '@decisio/learning';
import { JOB_ID_PATTERN, PythonSandbox, RewardFunction, nodeFunctionFiles, sandboxNodeFunctions } from '@decisio/learning/sandbox';
import type { DecisionGraph } from '@decisio/domain';
import type { Database } from '../../../db/database';
import type { JobContext } from '../../../jobs/queue';
import { parseJson, type Row } from '../common';
import { checkoutGit, type GitSource } from './git';
import { HostGuard } from '../../../net/host-guard';
import type { Logger } from '../../../logger';
import { SecretBox } from '../../../db/secrets';
import { systemClock } from '../../../clock';

/** What running user code needs from the server: the guard of user-given hosts (git) and the log for causes users don't see. */
export interface CodeEnv {
  guard: HostGuard;
  logger?: Logger | undefined;
}

/** The user code a job runs: reward, the graph's Python node functions, git checkout. */
export interface Code {
  reward: RewardCallback | null;
  nodeFunction: NodeFunctionCall | undefined;
}

/**
 * Prepares the job's code workspace: checks out the git repository when the training asks for
 * it, and starts one Python sandbox (when there is Python to run) with the repository's files,
 * the solution's uploaded files, the graph's node function code and the reward's files (later
 * ones win). Runs `fn`, then closes the sandbox.
 */
export async function withCode<T>(
  ctx: JobContext<unknown>,
  db: Database,
  env: CodeEnv,
  input: { solutionId: string; graph: DecisionGraph; dataset: Dataset; git?: GitSource | undefined; objective?: Row | null },
  fn: (code: Code) => Promise<T>,
): Promise<T> {
  let git = input.git;
  if (git?.enabled && git.password && SecretBox.isSealed(git.password)) git = { ...git, password: await new SecretBox(db, systemClock).open(git.password) };
  const gitFiles = git?.enabled ? (await checkoutGit(git, (l) => ctx.log(l), { guard: env.guard, onRefused: (reason) => env.logger?.warn('git checkout refused or failed', { jobId: ctx.jobId, reason }) })).files : {};
  const pattern = await db.knex('modelling_patterns').where({ solution_id: input.solutionId }).first('files');
  const python = input.graph.nodes.some((n) => n.function?.kind === 'python');
  if (!python && !input.objective) return fn({ reward: null, nodeFunction: undefined });
  const files = { ...gitFiles, ...parseJson<Record<string, string>>(pattern?.files, {}), ...nodeFunctionFiles(input.graph), ...parseJson<Record<string, string>>(input.objective?.files, {}) };
  // The work directory is the job's own (`<job root>/<jobId>`): a worker terminal binds it (trainSSH/getTrainSSH).
  const sandbox = await PythonSandbox.start({ files, ...(JOB_ID_PATTERN.test(ctx.jobId) ? { jobId: ctx.jobId } : {}), onLog: (l: string) => void ctx.log(`[python] ${l}`).catch(() => undefined) });
  try {
    const dims = Object.fromEntries(Object.entries(input.dataset.codecs).map(([k, c]) => [k, c.dim]));
    return await fn({
      reward: input.objective ? rewardFromFunction(new RewardFunction(sandbox)) : null,
      nodeFunction: python ? sandboxNodeFunctions(sandbox, input.graph, dims) : undefined,
    });
  } finally {
    await sandbox.close();
  }
}

export async function withReward<T>(ctx: JobContext<unknown>, db: Database, env: CodeEnv, input: { solutionId: string; graph: DecisionGraph; dataset: Dataset; git?: GitSource | undefined; objective: Row }, fn: (reward: RewardCallback, nodeFunction: NodeFunctionCall | undefined) => Promise<T>): Promise<T> {
  return withCode(ctx, db, env, input, (code) => fn(code.reward!, code.nodeFunction));
}
