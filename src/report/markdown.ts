/**
 * Markdown tables: readable in a terminal as they are, and pasted into an issue or a README
 * they render. Columns are padded to their widest cell.
 */
export type Align = 'left' | 'right' | 'center';

export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const alignOf = (i: number): Align => align[i] ?? 'left';
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const pad = (text: string, i: number) => {
    const w = widths[i]!;
    if (alignOf(i) === 'right') return text.padStart(w);
    if (alignOf(i) === 'center') return text.padStart(Math.floor((w + text.length) / 2)).padEnd(w);
    return text.padEnd(w);
  };
  const line = (cells: readonly string[]) => `| ${header.map((_, i) => pad(cells[i] ?? '', i)).join(' | ')} |`;
  const rule = widths.map((w, i) => {
    const a = alignOf(i);
    const dashes = '-'.repeat(w);
    if (a === 'right') return `${dashes.slice(1)}:`;
    if (a === 'center') return `:${dashes.slice(2)}:`;
    return dashes;
  });
  return [line(header), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n') + '\n';
}
