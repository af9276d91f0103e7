/** Environment trainings (spec workflow §2.3): the kit's trainings screen of this kind, with per-node scores in the detail. */
import type { PanelProps } from '@decisio/sdk-plugin';
import { TrainingsScreen } from '@decisio/sdk-plugin/trainings';
import type { TrainingRow } from '@decisio/sdk-plugin/trainings/api';
import { NodeScores } from './NodeScores';

const nodeScores = (row: TrainingRow) => <NodeScores row={row} />;

export const EnvironmentsPanel = (_p: PanelProps) => <TrainingsScreen screen="environment" detailExtra={nodeScores} />;
/** `/workflow/simulator/train`: the list with the training form open. */
export const EnvironmentTrainPanel = (_p: PanelProps) => <TrainingsScreen screen="environment" openForm detailExtra={nodeScores} />;
