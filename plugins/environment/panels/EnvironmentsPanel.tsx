/** Environment trainings (spec workflow §2.3): the kit's trainings screen of this kind. */
import type { PanelProps } from '@decisio/sdk-plugin';
import { TrainingsScreen } from '@decisio/sdk-plugin/trainings';

export const EnvironmentsPanel = (_p: PanelProps) => <TrainingsScreen screen="environment" />;
/** `/workflow/simulator/train`: the list with the training form open. */
export const EnvironmentTrainPanel = (_p: PanelProps) => <TrainingsScreen screen="environment" openForm />;
