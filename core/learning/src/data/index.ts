/** Trajectory data: npz/h5/csv readers, field codecs, the prepared `Dataset`, splits and sampling. */
export * from './npy';
export * from './h5';
export * from './raw';
export * from './codec';
export * from './dataset';
export * from './split';
export * from './load';
export * from './revive-table';
