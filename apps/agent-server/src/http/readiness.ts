import type { FastifyBaseLogger } from 'fastify';
import { StorageUnavailable } from '../storage/types.js';

/**
 * The longest `/ready` waits for storage to answer: a load balancer's or
 * Kubernetes' readiness probe gives up after about a second, and should see
 * a 503 rather than its own timeout.
 */
export const READY_WITHIN_MS = 1_000;

/**
 * Whether storage answers, for `/ready`: false when its check fails or takes
 * longer than `withinMs`. Probes that come while a check is under way share
 * it (a Redis that hangs gets one PING, not one per probe), and a slow check
 * goes on after the probe's answer, its outcome kept for the next. Storage
 * failing is logged once when it starts and once when it answers again, not
 * at every probe. A failure other than storage's (a bug) is thrown.
 */
export function readiness(ping: () => Promise<void>, log: FastifyBaseLogger, withinMs = READY_WITHIN_MS): () => Promise<boolean> {
  let check: Promise<boolean> | undefined;
  let failing = false;
  const fails = (err: unknown) => {
    if (!failing) log.warn({ err }, 'storage does not answer');
    failing = true;
    return false;
  };
  const runCheck = (): Promise<boolean> =>
    ping().then(
      () => {
        if (failing) log.info('storage answers again');
        failing = false;
        return true;
      },
      (e: unknown) => {
        if (!(e instanceof StorageUnavailable)) throw e;
        return fails(e);
      },
    );
  return () => {
    if (!check)
      check = runCheck().finally(() => {
        check = undefined;
      });
    const current = check;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(fails(new StorageUnavailable(`no answer within ${withinMs} ms`))), withinMs);
    });
    return Promise.race([current, late]).finally(() => clearTimeout(timer));
  };
}
