import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import type { Result } from '../../src/results/schema.ts';
import { CpuMeter, machineCpuBetween, readProcStat } from '../../src/runner/cpu-meter.ts';

const stat = (user: number, idle: number, steal: number) => `cpu  ${user} 0 100 ${idle} 50 0 0 ${steal} 7 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n`;

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
    assert.equal(machineCpuBetween(readProcStat(stat(1, 1, 1)), readProcStat(stat(1, 1, 1))), undefined, 'no time passed');
    assert.equal(machineCpuBetween(undefined, readProcStat(stat(1, 1, 1))), undefined);
  });

  it('measures this process and, on Linux, the machine', () => {
    const meter = new CpuMeter();
    let x = 0;
    const until = Date.now() + 30;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    const spent = meter.read();
    assert.ok(spent.userMs + spent.systemMs > 5, `${spent.userMs} ms user`);
    if (process.platform === 'linux') {
      assert.ok(spent.machine, 'machine CPU on Linux');
      assert.ok(spent.machine.busyPercent > 0 && spent.machine.busyPercent <= 100);
    }
  });

  it('warns in reports when a hypervisor stole enough CPU to depress the figures', () => {
    const result = (stealPercent: number) => ({ machineCpu: { busyPercent: 90, stealPercent } }) as unknown as Result;
    assert.equal(describeMachineCpu([{} as Result]), undefined);
    assert.equal(describeMachineCpu([result(0.5), result(2)]), 'machine CPU while measuring: busy 90% of all cores, steal 0.5–2%');
    assert.match(describeMachineCpu([result(1), result(31.2)]) ?? '', /WARNING: the hypervisor gave up to 31\.2%/);
  });
});
