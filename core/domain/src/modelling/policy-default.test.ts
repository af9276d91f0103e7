import { describe, expect, it } from 'vitest';
import { defaultPolicyAlgorithm } from './training';
import type { GraphField, GraphNode } from '../graph/model';

const field = (name: string, dataType: GraphField['dataType']): GraphField => ({ name, dataType, kind: 'float', visibility: 'normal' });
const node = (name: string, role: GraphNode['role'], fields: GraphField[], extra: Partial<GraphNode> = {}): GraphNode => ({ id: name, name, role, fields, tunable: false, ...extra });
const state = node('obs', 'state', [field('level', 'continuous'), field('mode', 'category')]);

describe('defaultPolicyAlgorithm', () => {
  it('SAC when every decided agent field is continuous, whatever the other nodes hold', () => {
    expect(defaultPolicyAlgorithm({ nodes: [state, node('action', 'agent', [field('valve', 'continuous'), field('heater', 'continuous')])] })).toBe('sac');
  });

  it('PPO as soon as one decided field is discrete or category, in any agent node', () => {
    const continuous = node('a1', 'agent', [field('valve', 'continuous')]);
    expect(defaultPolicyAlgorithm({ nodes: [state, continuous, node('a2', 'agent', [field('order', 'discrete')])] })).toBe('ppo');
    expect(defaultPolicyAlgorithm({ nodes: [state, node('a', 'agent', [field('engine', 'category')])] })).toBe('ppo');
  });

  it('an agent with a node function is not decided by the policy; no decided field at all: PPO', () => {
    const expert = node('rule', 'agent', [field('mode', 'category')], { function: { kind: 'builtin', name: 'identity' } });
    expect(defaultPolicyAlgorithm({ nodes: [state, expert, node('a', 'agent', [field('valve', 'continuous')])] })).toBe('sac');
    expect(defaultPolicyAlgorithm({ nodes: [state, expert] })).toBe('ppo');
    expect(defaultPolicyAlgorithm({ nodes: [state, node('a', 'agent', [])] })).toBe('ppo');
  });
});
