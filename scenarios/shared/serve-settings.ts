/**
 * How `docbench k6` splits a scenario script's `-p` assignments: store settings (`redis.*`, …) go
 * to the store as they are; the scenario's own go to `docbench serve` under the scenario's
 * prefix (`maxlimit=…` -> `ecommerce.maxlimit=…`), which is how the service tells them apart.
 */
import { SETTINGS_PREFIXES } from '../../src/stores/stores.ts';

/** Every store's settings prefixes, from the STORES table. */
export function isStoreSetting(assignment: string): boolean {
  return SETTINGS_PREFIXES.some((p) => assignment.startsWith(p));
}

/** `-p` for the service: the scenario's own settings prefixed, store settings as they are. */
export function serveSettings(scenario: string, overrides: readonly string[]): string[] {
  return overrides.map((o) => (isStoreSetting(o) || o.startsWith(`${scenario}.`) ? o : `${scenario}.${o}`));
}

/** The scenario's own settings among `-p` assignments, its prefix removed. */
export function ownSettings(scenario: string, overrides: readonly string[]): string[] {
  return overrides
    .filter((o) => !isStoreSetting(o))
    .map((o) => (o.startsWith(`${scenario}.`) ? o.slice(scenario.length + 1) : o));
}

/** The store settings among `-p` assignments. */
export function storeSettings(overrides: readonly string[]): string[] {
  return overrides.filter(isStoreSetting);
}
