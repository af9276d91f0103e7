/** Virtual environments learned from data: behaviour cloning (`bc`). */
export * from './bc';
