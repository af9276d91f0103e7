/**
 * Calls of the policy area: its records are training records, read and written through the
 * trainings kit (`@decisio/sdk-plugin/trainings`, endpoints `trainings/*`); this area adds none.
 */
export { trainingsApi, type TrainingRow } from '@decisio/sdk-plugin/trainings/api';
