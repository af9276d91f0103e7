/**
 * How edges look: the line style picked by the user mapped onto React Flow's edge types, and
 * the colour class of each edge status. Plain data so the model stays free of React Flow.
 */
import type { LineStyle } from './editor';

/** React Flow edge type of each line style (`floating` is this plugin's state-machine edge). */
export const EDGE_TYPE: Record<LineStyle, 'default' | 'straight' | 'smoothstep' | 'floating'> = {
  bezier: 'default',
  straight: 'straight',
  step: 'smoothstep',
  'state-machine': 'floating',
};

/** CSS class of an edge per status. */
export const EDGE_STATUS_CLASS = {
  invalid: 'dc-pattern-edge-invalid',
  start: 'dc-pattern-edge-start',
  effect: 'dc-pattern-edge-effect',
} as const;
