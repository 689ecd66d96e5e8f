/**
 * The study presets, one per paper docbench reproduces (each in `papers/`): its design as steps,
 * its published figures and arithmetic, and every way a run differs from it.
 */
import { altoros2022 } from './papers/altoros2022.ts';
import { carvalho2023 } from './papers/carvalho2023.ts';
import { dzone2016 } from './papers/dzone2016.ts';
import { henricsson2011 } from './papers/henricsson2011.ts';
import { tang2016 } from './papers/tang2016.ts';
import type { StudyPreset } from './preset.ts';

export { SCALES, type Scale } from './preset.ts';

export const STUDIES: readonly StudyPreset[] = [carvalho2023, tang2016, altoros2022, henricsson2011, dzone2016];
