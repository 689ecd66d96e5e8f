import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import type { Result } from '../../src/results/schema.ts';
import { CpuMeter, machineCpuBetween, readProcStat } from '../../src/runner/cpu-meter.ts';
import { burnCpu, cpuMsSince } from '../support/cpu.ts';

const stat = (user: number, idle: number, steal: number) =>
  `cpu  ${user} 0 100 ${idle} 50 0 0 ${steal} 7 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n`;

describe('machine CPU', () => {
  it('parses the aggregate /proc/stat line, leaving guest time out of the total', () => {
    assert.deepEqual(readProcStat(stat(1000, 5000, 30)), { total: 1000 + 100 + 5000 + 50 + 30, idle: 5050, steal: 30 });
    assert.equal(readProcStat('intr 1 2 3\n'), undefined);
    assert.equal(readProcStat('cpu  1 2 x 4 5 6 7 8\n'), undefined);
  });

  it('gives busy and steal as shares of all cores between two samples', () => {
    // 1,000 jiffies: 500 user, 300 idle (+ iowait), 200 steal.
    const m = machineCpuBetween(readProcStat(stat(1000, 5000, 0)), readProcStat(stat(1500, 5300, 200)));
    assert.deepEqual(m, { busyPercent: 50, stealPercent: 20 });
    assert.equal(
      machineCpuBetween(readProcStat(stat(1, 1, 1)), readProcStat(stat(1, 1, 1))),
      undefined,
      'no time passed',
    );
    assert.equal(machineCpuBetween(undefined, readProcStat(stat(1, 1, 1))), undefined);
  });

  it('measures this process and, on Linux, the machine', () => {
    const before = process.cpuUsage();
    const meter = new CpuMeter();
    // 50 ms of CPU, however long a loaded machine takes to give it (a wall-clock loop may get none).
    burnCpu(50);
    const spent = meter.read();
    const used = cpuMsSince(before);
    // The meter reads the same counter (getrusage) from before the burn to after it.
    const total = spent.userMs + spent.systemMs;
    assert.ok(total >= 50 - 1e-6 && total <= used + 1e-6, `burned 50 ms, metered ${total} ms, used ${used} ms in all`);
    if (process.platform === 'linux') {
      assert.ok(spent.machine, 'machine CPU on Linux');
      // Shares of all cores' time: some of it busy (this process, at least), none of it over 100%.
      const { busyPercent, stealPercent } = spent.machine;
      assert.ok(busyPercent > 0 && busyPercent <= 100, `busy ${busyPercent}%`);
      assert.ok(
        stealPercent >= 0 && busyPercent + stealPercent <= 100.1,
        `busy ${busyPercent}% + steal ${stealPercent}% (each rounded to 0.1)`,
      );
    }
  });

  it('warns in reports when a hypervisor stole enough CPU to depress the figures', () => {
    const result = (stealPercent: number) => ({ machineCpu: { busyPercent: 90, stealPercent } }) as unknown as Result;
    assert.equal(describeMachineCpu([{} as Result]), undefined);
    assert.equal(
      describeMachineCpu([result(0.5), result(2)]),
      'machine CPU while measuring: busy 90% of all cores, steal 0.5–2%',
    );
    assert.match(describeMachineCpu([result(1), result(31.2)]) ?? '', /WARNING: the hypervisor gave up to 31\.2%/);
  });
});
