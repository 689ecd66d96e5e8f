/** Bounds of one sweep cell unless -p says otherwise: a slow store cannot stall the sweep. */
export const SWEEP_DEFAULTS = ['operationcount=10000', 'maxexecutiontime=60'];
