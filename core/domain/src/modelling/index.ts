export * from './schemas';
export * from './training';
export * from './tensors';
export * from './correlation';
export * from './revive-import';
