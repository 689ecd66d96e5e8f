/**
 * The scenario routes besides YCSB's, and the scenarios' settings. Loaded only by a service
 * process (and by `docbench serve` to check settings), never by the rest of the CLI: the
 * e-commerce generator brings faker, which takes a moment to load.
 */
import type { FastifyInstance } from 'fastify';
import { parseSettings, type EcommerceSettings } from '../../scenarios/ecommerce/settings.ts';
import { WorkloadError } from '../workload/properties.ts';
import type { ServeConfig } from './config.ts';
import { MAX_PAGE_LIMIT, MAX_PAGE_OFFSET, registerEcommerceRoutes } from './ecommerce-routes.ts';
import { parsePersonsSettings, registerPersonsRoutes, type PersonsServiceSettings } from './persons-routes.ts';
import type { StoreGate } from './store-gate.ts';

/** The scenarios' own settings (`-p ecommerce.*`, `-p persons.*`), parsed by each scenario's rules; throws WorkloadError naming a bad one. */
export function scenarioSettings(config: Pick<ServeConfig, 'scenarios' | 'scenarioSettings'>): { ecommerce: EcommerceSettings | null; persons: PersonsServiceSettings | null } {
  return {
    ecommerce: config.scenarios.includes('ecommerce') ? prefixed('ecommerce', () => withinRouteBounds(parseSettings(config.scenarioSettings.ecommerce))) : null,
    persons: config.scenarios.includes('persons') ? parsePersonsSettings(config.scenarioSettings.persons) : null,
  };
}

/** Pages the parameters route hands out must be pages /customers serves. */
function withinRouteBounds(settings: EcommerceSettings): EcommerceSettings {
  if (settings.maxlimit > MAX_PAGE_LIMIT) throw new WorkloadError(`-p maxlimit=${settings.maxlimit}: the service serves pages of at most ${MAX_PAGE_LIMIT}`);
  if (settings.maxoffset > MAX_PAGE_OFFSET) throw new WorkloadError(`-p maxoffset=${settings.maxoffset}: the service serves offsets up to ${MAX_PAGE_OFFSET}`);
  return settings;
}

/** The scenario's parser names keys as `-p key`; here they are given as `-p ecommerce.key`. */
function prefixed<T>(scenario: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof WorkloadError) throw new WorkloadError(error.message.replace(/^-p /, `-p ${scenario}.`));
    throw error;
  }
}

export interface ScenarioRouteOptions {
  gate: StoreGate;
  config: ServeConfig;
  log: (line: string) => void;
}

/** Register the routes of the configured scenarios other than YCSB (whose routes app.ts adds). */
export function registerScenarioRoutes(app: FastifyInstance, options: ScenarioRouteOptions): void {
  const settings = scenarioSettings(options.config);
  if (settings.ecommerce) registerEcommerceRoutes(app, { gate: options.gate, settings: settings.ecommerce });
  if (settings.persons) registerPersonsRoutes(app, { gate: options.gate, settings: settings.persons, log: options.log });
}
