import { Queue } from 'bullmq';
import { expect, inject } from 'vitest';

/**
 * Adds one job to a queue of the test cluster, as its job scheduler would, and returns what the worker's processor
 * returned. Polled: a QueueEvents made just now could start reading after the job already finished.
 */
export async function runJob<R>(queueName: string, jobName: string): Promise<R> {
  const redis = new URL(inject('redisUrl'));
  const queue = new Queue(queueName, {
    connection: { host: redis.hostname, port: Number(redis.port || 6379) },
    prefix: `${inject('redisPrefix')}:bull`,
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
