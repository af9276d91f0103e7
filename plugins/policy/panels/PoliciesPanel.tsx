/** Policy trainings (spec workflow §2.5): the kit's trainings screen of this kind. */
import type { PanelProps } from '@decisio/sdk-plugin';
import { TrainingsScreen } from '@decisio/sdk-plugin/trainings';

export const PoliciesPanel = (_p: PanelProps) => <TrainingsScreen screen="policy" />;
/** `/workflow/policy/train`: the list with the training form open. */
export const PolicyTrainPanel = (_p: PanelProps) => <TrainingsScreen screen="policy" openForm />;
