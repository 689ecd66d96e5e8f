/**
 * The e-commerce scenario's part of `docbench serve`: its routes (routes.ts) and its settings,
 * `-p ecommerce.<key>=…` (settings.ts), bounded by what one request may cost.
 */
import { WorkloadError } from '../../src/workload/properties.ts';
import { prefixed } from '../shared/prefixed.ts';
import type { ScenarioService } from '../scenario.ts';
import { MAX_PAGE_LIMIT, MAX_PAGE_OFFSET, registerEcommerceRoutes } from './routes.ts';
import { parseSettings, type EcommerceSettings } from './settings.ts';

/** Pages the parameters route hands out must be pages /customers serves. */
function withinRouteBounds(settings: EcommerceSettings): EcommerceSettings {
  if (settings.maxlimit > MAX_PAGE_LIMIT)
    throw new WorkloadError(`-p maxlimit=${settings.maxlimit}: the service serves pages of at most ${MAX_PAGE_LIMIT}`);
  if (settings.maxoffset > MAX_PAGE_OFFSET)
    throw new WorkloadError(`-p maxoffset=${settings.maxoffset}: the service serves offsets up to ${MAX_PAGE_OFFSET}`);
  return settings;
}

export const service: ScenarioService<EcommerceSettings> = {
  settings: (assignments) => prefixed('ecommerce', () => withinRouteBounds(parseSettings(assignments))),
  register: (app, options) => registerEcommerceRoutes(app, options),
};
