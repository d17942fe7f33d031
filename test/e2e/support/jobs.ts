import { createQueue } from '@wms/kit/queues';
import { expect, inject } from 'vitest';

/**
 * Adds one job to a queue of the test cluster, as its job scheduler would, and returns what the worker's processor
 * returned. Polled: a QueueEvents made just now could start reading after the job already finished.
 */
export async function runJob<R>(queueName: string, jobName: string): Promise<R> {
  const queue = createQueue(queueName, {
    // The redis-cluster-e2e project's cluster is on a Redis Cluster; the others' on one Redis.
    redis: { url: inject('redisUrl'), clusterNodes: inject('redisClusterNodes') ?? [] },
    prefix: inject('redisPrefix'),
  });
  try {
    const { id } = await queue.add(jobName, {});
    let result: R | undefined;
    await expect
      .poll(
        async () => {
          const job = await queue.getJob(id!);
          if (job?.failedReason) throw new Error(`${queueName} job failed: ${job.failedReason}`);
          result = job?.finishedOn ? (job.returnvalue as R) : undefined;
          return result !== undefined;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return result!;
  } finally {
    await queue.close();
  }
}
