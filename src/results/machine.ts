import { arch, cpus, platform, release, totalmem } from 'node:os';
import { docbenchVersion } from '../version.ts';
import type { Machine } from './schema.ts';

/** The machine the client ran on, recorded in every result. */
export function describeMachine(): Machine {
  const cpuList = cpus();
  return {
    cpus: Math.max(1, cpuList.length),
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    memoryBytes: totalmem(),
    platform: platform(),
    release: release(),
    arch: arch(),
    node: process.version,
    docbench: docbenchVersion(),
  };
}
