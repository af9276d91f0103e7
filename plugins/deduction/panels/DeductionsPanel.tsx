/** Deductions (spec workflow §2.3 simulation, §2.5 decision): the kit's screen of each kind. */
import type { PanelProps } from '@decisio/sdk-plugin';
import { TrainingsScreen } from '@decisio/sdk-plugin/trainings';

export const SimulationsPanel = (_p: PanelProps) => <TrainingsScreen screen="simulation" />;
export const DecisionsPanel = (_p: PanelProps) => <TrainingsScreen screen="decision" />;
