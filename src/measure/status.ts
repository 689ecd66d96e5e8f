/**
 * The five return statuses docbench counts, YCSB's names. UNEXPECTED_STATE is YCSB's status for
 * a failed dataintegrity check (the VERIFY row).
 */
export const STATUSES = ['OK', 'NOT_FOUND', 'ERROR', 'UNSUPPORTED', 'UNEXPECTED_STATE'] as const;
export type Status = (typeof STATUSES)[number];
