/**
 * REVIVE's rule-based matcher reward file for revive-p (`refrigeration_rule.py` in REVIVE's
 * examples): module-level `weight` (and `normalize`), and `get_reward(data, graph)` returning
 * `[B, 1]`. The engine runs it in the sandbox through a small wrapper that calls it with
 * `graph=None`; a file that uses the graph (`graph.compute_node`, `graph.get_node`) cannot run
 * outside REVIVE and is refused by name, as is `normalize = True`.
 */
import { LearningError } from '../errors';

/** Name the user's rule file gets in the sandbox. */
export const MATCHER_RULE_FILE = 'matcher_rule.py';
/** The wrapper file the trainer calls (`get_reward(data)`). */
export const MATCHER_CALL_FILE = 'matcher_reward.py';

const WRAPPER = `import inspect
import ${MATCHER_RULE_FILE.replace(/\.py$/, '')} as _rule


def get_reward(data):
    if len(inspect.signature(_rule.get_reward).parameters) >= 2:
        return _rule.get_reward(data, None)
    return _rule.get_reward(data)
`;

/** The sandbox files and the weight of a matcher reward file's source. */
export interface MatcherSetup {
  files: Record<string, string>;
  /** The file to call `get_reward` in. */
  file: string;
  /** The file's module-level `weight` (default 1). */
  weight: number;
}

/**
 * Prepares a REVIVE rule (matcher) reward file. Throws `LearningError('revive.unsupported')`
 * naming `graph` use or `normalize = True`.
 */
export function matcherRewardSetup(code: string): MatcherSetup {
  const body = code.replace(/#.*$/gm, '');
  if (/\bgraph\s*\.\s*\w+/.test(body)) throw new LearningError('revive.unsupported', { feature: 'matcher reward: graph.compute_node / graph.get_node', more: '-' });
  if (/^normalize\s*=\s*True\b/m.test(body)) throw new LearningError('revive.unsupported', { feature: 'matcher reward: normalize = True', more: '-' });
  const w = /^weight\s*=\s*([-+0-9.eE]+)\s*$/m.exec(body);
  const weight = w ? Number(w[1]) : 1;
  // the sandbox hands torch tensors to a file that imports torch: the wrapper does when the rule does
  const torch = /^\s*(import\s+torch|from\s+torch[\s.])/m.test(code) ? 'import torch  # noqa: F401 (torch tensors for the rule)\n' : '';
  return { files: { [MATCHER_RULE_FILE]: code, [MATCHER_CALL_FILE]: torch + WRAPPER }, file: MATCHER_CALL_FILE, weight: Number.isFinite(weight) ? weight : 1 };
}
