export * from './schemas';
export * from './failure';
