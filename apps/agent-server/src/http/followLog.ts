import type { Scenario } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { type RunRecord, type Storage, StorageUnavailable } from '../storage/types.js';
import { MIN_PAUSE_MS, pacer } from './pace.js';
import type { Producer, Producers } from './producers.js';
import { eventsOf } from './runEvents.js';
import type { SseClient } from './sseClient.js';

/** Frames read from storage at a time when a stream replays a run's log. */
export const PAGE = 256;

/** Opens a client's response to a run, counted among the readers of its producer (if any) while it reads. */
export type Respond = (request: FastifyRequest, reply: FastifyReply, runId: string) => SseClient;

/** How clients read a run from its log, following its producer (if any) as it stores each event. */
export interface LogFollower {
  /**
   * Sends a client a run's frames from `from`: those its log holds, then each
   * one its producer stores, until the producer is done and the log is read
   * to its end; each once it is due (`ahead`: a run produced ahead of its
   * pace). Ends the response. `first`: the frames from `from` read already.
   * `began`: the run's producer as the stream began (done since or not).
   */
  deliver(
    client: SseClient,
    runId: string,
    from: number,
    log: FastifyBaseLogger,
    ahead: (index: number) => number,
    first?: string[],
    began?: Producer,
  ): Promise<void>;
  /**
   * Streams a run that this server is producing already (a retry, a
   * reconnect), or produced ahead of its pace a moment ago: its stored frames
   * from `from`, then each one its producer stores, each once it is due.
   */
  follow(request: FastifyRequest, reply: FastifyReply, scenario: Scenario, run: RunRecord, from: number): Promise<void>;
}

export function logFollower(storage: Storage, producers: Producers, respond: Respond): LogFollower {
  async function deliver(
    client: SseClient,
    runId: string,
    from: number,
    log: FastifyBaseLogger,
    ahead: (index: number) => number,
    first?: string[],
    began?: Producer,
  ): Promise<void> {
    let index = from;
    /** The producer last followed: one that storage failed under left the log short of the run's end. */
    let followed = began ?? producers.live.get(runId);
    try {
      let page = first ?? (await storage.events(runId, index, PAGE));
      // Once the producer is done, the log is read once more: it may have stored its last frames after the read before.
      for (let last = false; !client.closed; ) {
        for (const frame of page) {
          const wait = ahead(index);
          if (wait >= MIN_PAUSE_MS) await client.sleep(wait);
          if (!(await client.send(frame))) break;
          index++;
        }
        if (client.closed) break;
        if (page.length < PAGE) {
          const producer = producers.live.get(runId);
          followed = producer ?? followed;
          if (!producer && last) {
            // The log read to its end, its producer done: the run's end, unless storage failed under it. Then the
            // client did not read the run's end (the interrupts it raises once produced again are not seen).
            if (!followed?.failed) client.sentEnd();
            break;
          }
          if (!producer) last = true;
          else if (producer.stored <= index) await client.until((wake) => producer.waiting.add(wake));
        }
        page = await storage.events(runId, index, PAGE);
      }
    } catch (e) {
      log.error({ err: e, runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
    } finally {
      const gone = client.end();
      log.info({ runId, from, to: index, sent: client.sent, closedByClient: gone, followed: true }, 'stream ended');
    }
  }

  return {
    deliver,
    async follow(request, reply, scenario, run, from) {
      const producer = producers.live.get(run.runId);
      const first = await storage.events(run.runId, from, PAGE);
      const ahead = pacer(producers.paceOf(run.runId), () => eventsOf(scenario, run.input, run.startedAt, run.nonce));
      await deliver(respond(request, reply, run.runId), run.runId, from, request.log, ahead, first, producer);
    },
  };
}
