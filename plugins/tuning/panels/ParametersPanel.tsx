/** Parameter tuning (spec workflow §2.6): the kit's trainings screen of parameter searches. */
import type { PanelProps } from '@decisio/sdk-plugin';
import { TrainingsScreen } from '@decisio/sdk-plugin/trainings';

export const ParametersPanel = (_p: PanelProps) => <TrainingsScreen screen="parameter" />;
/** `/workflow/parameter/train`: the list with the tuning form open. */
export const ParameterTrainPanel = (_p: PanelProps) => <TrainingsScreen screen="parameter" openForm />;
