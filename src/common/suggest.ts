/** "Did you mean": the known name nearest to a misspelt one, for one-line user errors. */

/** The candidate nearest to `given` (case-insensitive edit distance at most `maxDistance`), if any. */
export function closestName(given: string, candidates: Iterable<string>, maxDistance = 3): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  const wanted = given.toLowerCase();
  for (const candidate of candidates) {
    const d = editDistance(wanted, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` or nothing, ready to append to a message. */
export function didYouMean(given: string, candidates: Iterable<string>): string {
  const hint = closestName(given, candidates);
  return hint ? ` (did you mean "${hint}"?)` : '';
}

/** Levenshtein distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
