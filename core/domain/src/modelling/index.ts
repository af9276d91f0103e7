export * from './schemas';
export * from './tensors';
export * from './correlation';
