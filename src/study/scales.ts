/** A study's scales, in a module of their own: the CLI's option list needs them and nothing else. */
export const SCALES = ['tiny', 'small', 'full'] as const;
export type Scale = (typeof SCALES)[number];
