/**
 * What `failovercheck=true` needs of the other properties (dataintegrity, a field long enough to
 * name its write, a bounded account of acknowledged writes), each a one-line error naming where
 * the property was set.
 */
import { WorkloadError, type WorkloadProperties } from './properties.ts';

type Checked = Pick<
  WorkloadProperties,
  | 'failovercheck'
  | 'dataintegrity'
  | 'zeropadding'
  | 'fieldlength'
  | 'recordcount'
  | 'insertproportion'
  | 'operationcount'
  | 'fieldcount'
>;

export function checkFailoverCheck(p: Checked, where: (key: string) => string): void {
  if (p.failovercheck && !p.dataintegrity) {
    throw new WorkloadError(
      `${where('failovercheck')}: failovercheck=true needs dataintegrity=true (the check regenerates every value it reads back), and a table loaded with it`,
    );
  }
  // `user`, the key's digits (20 at most, or zeropadding), `@`, the write's number (7 digits) and `:`.
  const versionedLength = 4 + Math.max(20, p.zeropadding) + 9;
  if (p.failovercheck && p.fieldlength < versionedLength) {
    throw new WorkloadError(
      `${where('failovercheck')}: failovercheck=true needs fieldlength >= ${versionedLength}, so a value holds the key and the number of the write that made it; got fieldlength=${p.fieldlength}`,
    );
  }
  // The check keeps 12 bytes for every field of every key the run may write (runner/acknowledged-writes.ts).
  const trackedKeys =
    p.recordcount + (p.insertproportion > 0 ? (p.operationcount > 0 ? p.operationcount : p.recordcount) : 0);
  if (p.failovercheck && trackedKeys * p.fieldcount > 64 * 1024 * 1024) {
    throw new WorkloadError(
      `${where('failovercheck')}: failovercheck=true keeps 12 bytes for each field of every key the run may write: ${trackedKeys} keys × ${p.fieldcount} fields is over 64 M fields (768 MB); use fewer records, fields or operations`,
    );
  }
}
