/**
 * The persons scenario's part of `docbench serve`: `GET /persons` (routes.ts) and what the service
 * is told about the seeded datasets, `-p persons.size=N` and friends, which `GET /_docbench/info`
 * hands the k6 script (it computes the oracle's answers from them).
 */
import type { ScenarioService } from '../scenario.ts';
import { parsePersonsSettings, registerPersonsRoutes, type PersonsServiceSettings } from './routes.ts';

export const service: ScenarioService<PersonsServiceSettings> = {
  settings: parsePersonsSettings,
  register: (app, options) => registerPersonsRoutes(app, options),
  info: (settings) => settings,
};
