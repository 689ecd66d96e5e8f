/**
 * Device ids, unique over the whole dataset by construction: YCSB-JSON's soe_arrayscan looks a
 * customer up by one of its devices, and a real device id belongs to one customer. The id is a
 * pure function of (dataset seed, customer index, slot), so the oracle knows the one customer a
 * device belongs to without keeping a table of them, and a parameter chooser can draw a device
 * of any customer in a few nanoseconds.
 *
 * Shape: `MAKER-dddd-xxxxxxxxxxxx`. The twelve hex digits are (index × 128 + slot) put through a
 * four-round Feistel network on two 24-bit halves keyed by the seed: one-to-one, so two (index,
 * slot) pairs never share an id, yet the ids do not read as a counter. The maker and the four
 * digits are taken from the permuted value, so they add no randomness that could collide.
 */

/** Slots 0 … DEVICE_SLOTS-1 per customer: devices first, then the linked-device groups. */
export const DEVICE_SLOTS = 128;
/** Slots of `devices`; linked devices use slots from here on. */
export const LINKED_DEVICE_FIRST_SLOT = 66;

const DEVICE_MAKERS = ['SM', 'iPh', 'Pix', 'ONE', 'XM', 'MOTO', 'NOK', 'HUA', 'LG', 'SONY'];
const HALF = 16777216; // 2^24

function roundKey(seed: number, round: number): number {
  let z = (Math.imul((seed >>> 0) ^ Math.floor(seed / 4294967296), 0x9e3779b1) + round * 0x7f4a7c15) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** The round keys of the last seed asked for (a run uses one seed: no lookup per id). */
let lastSeed = Number.NaN;
let lastKeys: number[] = [];

function keysOf(seed: number): number[] {
  if (seed !== lastSeed) {
    lastKeys = [0, 1, 2, 3].map((r) => roundKey(seed, r));
    lastSeed = seed;
  }
  return lastKeys;
}

const round = (half: number, key: number) => (Math.imul(half ^ key, 0x9e3779b1) >>> 8) & 0xffffff;

/** The 48-bit permutation of x (x < 2^48). */
function permute(seed: number, x: number): number {
  const k = keysOf(seed);
  let left = Math.floor(x / HALF);
  let right = x % HALF;
  left ^= round(right, k[0]!);
  right ^= round(left, k[1]!);
  left ^= round(right, k[2]!);
  right ^= round(left, k[3]!);
  return left * HALF + right;
}

/** The inverse of `permute`: the same rounds, last first. */
function unpermute(seed: number, y: number): number {
  const k = keysOf(seed);
  let left = Math.floor(y / HALF);
  let right = y % HALF;
  right ^= round(left, k[3]!);
  left ^= round(right, k[2]!);
  right ^= round(left, k[1]!);
  left ^= round(right, k[0]!);
  return left * HALF + right;
}

const HEX = '0123456789abcdef';

function hex24(n: number): string {
  let out = '';
  for (let shift = 20; shift >= 0; shift -= 4) out += HEX[(n >>> shift) & 15];
  return out;
}

/** The customer index and slot a device id was made for, or undefined for a string that is none. */
export function deviceOwner(seed: number, device: string): { index: number; slot: number } | undefined {
  const m = /^[A-Za-z]+-[0-9]{4}-([0-9a-f]{12})$/.exec(device);
  if (!m) return undefined;
  const x = unpermute(seed, parseInt(m[1]!, 16));
  const owner = { index: Math.floor(x / DEVICE_SLOTS), slot: x % DEVICE_SLOTS };
  return deviceId(seed, owner.index, owner.slot) === device ? owner : undefined;
}

/** The id of device `slot` (0 … DEVICE_SLOTS-1) of customer `index`. */
export function deviceId(seed: number, index: number, slot: number): string {
  const value = permute(seed, index * DEVICE_SLOTS + slot);
  const high = Math.floor(value / HALF);
  const low = value % HALF;
  const maker = DEVICE_MAKERS[low % DEVICE_MAKERS.length]!;
  const digits = (high % 10000) + 10000;
  return `${maker}-${String(digits).slice(1)}-${hex24(high)}${hex24(low)}`;
}
