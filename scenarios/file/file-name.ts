/** Whether a value names a scenario file (by its extension): the SCENARIOS table's test, kept free of any import. */
export function isScenarioFile(value: string): boolean {
  return /\.(ya?ml|json)$/i.test(value);
}
