/**
 * The modelling areas' kinds of training, registered explicitly (one line per area): the server
 * (`app.ts`) mounts their calls and registers their job kinds, a worker process
 * (`jobs/worker-kinds.ts`) registers their job kinds. Importing an area registers nothing.
 */
import { TrainingKinds } from '../training-kinds';
import { decisionDeduction, simulationDeduction } from './deduction';
import { environmentTraining } from './environment';
import { policyTraining } from './policy';
import { tuningTraining } from './tuning';

/** A registry with every modelling area's kind. */
export function modellingTrainingKinds(): TrainingKinds {
  return new TrainingKinds().register(environmentTraining).register(policyTraining).register(tuningTraining).register(simulationDeduction).register(decisionDeduction);
}
