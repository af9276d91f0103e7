export * from './schemas';
export * from './tensors';
