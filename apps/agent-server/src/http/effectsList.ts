import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import type { Storage } from '../storage/types.js';
import { MAX_EFFECTS_PAGE } from './limits.js';

/**
 * Every effect recorded, in the order done, as one JSON array (`GET /effects` without a query), read from storage a
 * page at a time as the answer is written: however many effects storage holds, the server holds one page of them, and
 * other requests are answered between pages. The first page is read before anything is sent, so a storage that cannot
 * be read is the usual 503; one lost later cuts the answer short (its client sees a body that is no whole array).
 * Effects done while it is written are in it too, as they would be in the pages a client reads with `next`.
 * For `HEAD` (`headers`), no body: storage is read for one effect alone (a 503 as for `GET`), and nothing is read
 * after the answer (Fastify drains a stream it is handed for a HEAD, which would read every page after the answer).
 */
export async function effectsArray(storage: Storage, headers = false): Promise<Readable> {
  if (headers) {
    await storage.effectsPage(0, 1);
    return Readable.from([]);
  }
  const first = await storage.effectsPage(0, MAX_EFFECTS_PAGE);
  async function* chunks() {
    let page = first;
    let written = 0;
    yield '[';
    for (;;) {
      if (page.effects.length > 0) yield (written === 0 ? '' : ',') + page.effects.map((e) => JSON.stringify(e)).join(',');
      written += page.effects.length;
      if (!page.more) break;
      // A task of its own for each page: a storage that answers at once (SQLite, memory) does not hold the process.
      await setImmediate();
      page = await storage.effectsPage(page.next, MAX_EFFECTS_PAGE);
    }
    yield ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}
