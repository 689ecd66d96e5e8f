/**
 * GET /_docbench/ycsb/plan?stream=S&count=N: N YCSB operations of the service's workload,
 * decided by a fresh CoreWorkload on random stream S (ycsb-plan.ts says why and when), as lines
 * of text (`planText`). k6 VUs
 * fetch a block, then run its operations one per iteration. The CPU the service spends drawing
 * a block is kept apart (`internalCpuUs` in the stats), so the service's CPU per request stays
 * the cost of serving the API, and the result shows what deciding cost on its own.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CoreWorkload } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { Random } from '../workload/random.ts';
import type { RequestCounter } from './stats.ts';
import { drawPlan, MAX_PLAN_BLOCK, planText, unplannable } from './ycsb-plan.ts';
import { parseParameters, wholeNumberParam } from './validation.ts';

const planQuery = z
  .object({
    stream: wholeNumberParam(0, 2 ** 31 - 1),
    count: wholeNumberParam(1, MAX_PLAN_BLOCK),
  })
  .strict();

export function registerPlanRoute(
  app: FastifyInstance,
  options: { properties: WorkloadProperties; counter: RequestCounter },
): void {
  const p = options.properties;
  app.get('/_docbench/ycsb/plan', async (request, reply) => {
    const q = parseParameters(planQuery, request.query, 'query');
    const reason = unplannable(p);
    if (reason !== null)
      return reply.code(409).send({
        error: 'not plannable',
        message: `the service cannot decide ${p.table}'s operations in blocks: ${reason}; each VU decides its own`,
      });
    // Drawing and serializing are synchronous: the CPU between these two readings is theirs alone.
    const before = process.cpuUsage();
    const body = planText(drawPlan(new CoreWorkload(p, new Random(p.seed, q.stream)), q.count));
    const spent = process.cpuUsage(before);
    options.counter.addInternalCpu(spent.user + spent.system);
    return reply.type('text/plain; charset=utf-8').send(body);
  });
}
