import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';
import type { ExportFormat, WorkloadProperties } from '../workload/properties.ts';
import { renderYcsbText, ycsbHeader, ycsbMeasurements } from './ycsb-text.ts';

/**
 * YCSB's exporters (`exporter`, `exportfile`): a result's measurements as YCSB 0.17.0 writes
 * them, so whatever reads YCSB's files reads docbench's.
 *
 * - `TextMeasurementsExporter` (the default): `[metric], measurement, value` lines (ycsb-text.ts).
 * - `JSONArrayMeasurementsExporter`: one JSON array of `{metric, measurement, value}` objects.
 * - `JSONMeasurementsExporter`: the same objects one after another, not in an array (YCSB's
 *   maintainers kept it so for the readers that expect it; it is not one JSON document).
 *
 * Both JSON forms are laid out as YCSB's Jackson pretty printer lays them out. docbench's header
 * (store and version, the stand-in statement, the notes) opens them as objects whose metric is
 * `DOCBENCH` and whose value is text, so a stand-in's figures never travel without saying so.
 */
export function renderYcsbExport(result: Result, format: ExportFormat): string {
  if (format === 'text') return renderYcsbText(result);
  const header = ycsbHeader(result).map((text, i) => ({
    metric: 'DOCBENCH',
    measurement: i === 0 ? 'Run' : text.startsWith('VERDICT: ') ? 'Verdict' : 'Note',
    value: text.startsWith('VERDICT: ') ? text.slice('VERDICT: '.length) : text,
  }));
  const objects = [...header, ...ycsbMeasurements(result)].map(jacksonObject);
  if (format === 'json-array') return objects.length === 0 ? '[ ]' : `[ ${objects.join(', ')} ]`;
  return objects.join(' ');
}

/**
 * Write a result's measurements where YCSB would: to `exportfile` when set (atomically, so a
 * reader never sees half a file), otherwise to `stdout`, in the format `exporter` names.
 * Returns the file written, if any.
 */
export function exportMeasurements(
  result: Result,
  properties: Pick<WorkloadProperties, 'exporter' | 'exportfile'>,
  stdout: (text: string) => void = (text) => process.stdout.write(text),
): string | undefined {
  const text = renderYcsbExport(result, properties.exporter);
  const withNewline = text.endsWith('\n') ? text : `${text}\n`;
  if (properties.exportfile === undefined) {
    stdout(withNewline);
    return undefined;
  }
  writeFileAtomic(properties.exportfile, withNewline);
  return properties.exportfile;
}

/** One object as Jackson's DefaultPrettyPrinter writes it: `{`, a field per line indented by two, `"key" : value`, `}`. */
function jacksonObject(fields: { metric: string; measurement: string; value: string | number }): string {
  const lines = Object.entries(fields).map(([key, value]) => `  ${JSON.stringify(key)} : ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}`;
}
