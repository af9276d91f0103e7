/**
 * `@decisio/sdk-plugin/trainings`: the trainings kit the modelling areas share (spec workflow §2,
 * §7) so that no area plugin imports another: one screen for the list of a kind of training or
 * deduction with its form, detail (live curves, logs, rollouts, TensorBoard), stop, copy, restore
 * and delete; the training forms (their fields, checks and create body are `core/domain`'s,
 * `modelling/training.ts`) and the deduction form; the charts; one live-events hook; the
 * list, table, empty-state and delete-confirm pieces; the calls and their types.
 *
 * Load it from panels (`import()`), not from manifests: it pulls Blueprint and uPlot. The
 * manifest with its translations is `@decisio/sdk-plugin/trainings/plugin` ({@link trainingsKitPlugin}).
 */
export * from './api';
export * from './chart';
export * from './events';
export * from './shared';
export { Curves, seriesOf } from './Curves';
export { TrainingDetail } from './TrainingDetail';
export { TrainFormDialog } from './TrainFormDialog';
export { DeductionDialog, validateDeduction, type DeductionForm } from './DeductionDialog';
export { TrainingsScreen, type TrainingScreen } from './TrainingsScreen';
export { useTrainingsT, type TrainingsBundle } from './i18n';
export { useSolutionChoice, useSolutionPolicies } from './pickers';
export { TRAININGS_NS } from './plugin';
