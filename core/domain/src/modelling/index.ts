export * from './schemas';
export * from './training';
export * from './tensors';
export * from './correlation';
export * from './revive-import';
export * from './scheme-fields';
export * from './hyperparameter-sets';
export * from './node-scores';
