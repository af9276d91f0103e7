/** Virtual environments learned from data: behaviour cloning (`bc`), adversarial (`revive-p`, `revive-t`), ensembles. */
export * from './bc';
export * from './revive';
export * from './ensemble';
