import type { LostWrites } from './schema.ts';

/** The note that puts the check's finding before the figures. */
export function lostWritesNote(lost: LostWrites): string {
  const how = `read back ${lost.checkedFields} acknowledged fields of ${lost.checkedRecords} records with ${lost.readWith}`;
  const extra = [
    lost.unreadableRecords > 0 ? `${lost.unreadableRecords} records could not be read back (not counted either way)` : '',
    lost.unrecognisedFields > 0 ? `${lost.unrecognisedFields} fields held values no write of the run made` : '',
    lost.untrackedWrites > 0 ? `${lost.untrackedWrites} writes of keys beyond the tracked range were not checked` : '',
    lost.droppedFields > 0 ? `${lost.droppedFields} fields written over 4,194,303 times were dropped from the check` : '',
  ].filter(Boolean);
  const head = lost.lostFields > 0
    ? `LOST WRITES: ${lost.lostFields} acknowledged writes were lost (fields of ${lost.lostRecords} records, ${lost.missingRecords} records gone whole): they held an older write than the last one acknowledged`
    : 'LOST WRITES: none: every acknowledged write (or a later one) was there';
  return `${head} (${how})${extra.length > 0 ? `; ${extra.join('; ')}` : ''}`;
}
