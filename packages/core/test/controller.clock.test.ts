/**
 * The clock interrupt expiry is measured with, on a machine whose own clock
 * is wrong: a laptop minutes fast or slow. An agent that stamps its events
 * (AG-UI `timestamp`, ms since the epoch) says what time it is where its
 * `expiresAt` was set, and the controller keeps to that clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRunController, httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started } from './support/controllerHarness.js';

beforeAll(() => loadEngine());
const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await new Promise((closed) => server.close(closed));
});

const MINUTE = 60_000;

/**
 * An agent whose clock is `skew` ms off the machine's (positive: ahead); its
 * first run asks for approval within `windowMs` of its own now, and stamps
 * every event (`stamp: false`: none) with its own time.
 */
function agentAt(skew: number, windowMs = 2 * MINUTE, stamp: boolean | ((n: number) => number | undefined) = true) {
  const agentNow = () => Date.now() + skew;
  const at = (n: number) => (typeof stamp === 'function' ? stamp(n) : stamp ? agentNow() : undefined);
  return scripted((n, input: RunAgentInput, emit) => {
    const t = at(n);
    const stamped = (e: Record<string, unknown>) => (t === undefined ? e : { ...e, timestamp: t });
    emit(stamped(started(input)));
    const expiresAt = new Date(agentNow() + windowMs).toISOString();
    emit(
      stamped(
        n === 0
          ? finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', expiresAt }] } })
          : finished(input),
      ),
    );
  });
}

const approve = [{ interruptId: 'i1', status: 'resolved' as const, payload: { approved: true } }];

describe("the controller's clock keeps to the agent's, as its stamped events show it", () => {
  it('a machine 5 minutes fast can still approve within a 2-minute window', async () => {
    const { source, inputs } = agentAt(-5 * MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(controller.getSnapshot().thread.interrupts).toHaveLength(1);
    const lag = Date.now() - 5 * MINUTE - controller.now();
    // The agent's time, give or take the time the events took to arrive.
    expect(Math.abs(lag)).toBeLessThan(1_000);
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
    expect(inputs[1]?.resume).toEqual(approve);
    expectReplayed(controller);
  });

  it('a machine 5 minutes slow cannot approve what expired on the agent a minute ago (only cancel it)', async () => {
    const { source, inputs } = agentAt(5 * MINUTE, -MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(await controller.resume(approve)).toMatchObject({ ok: false, errors: [{ code: 'EXPIRED' }] });
    expect(await controller.resume([{ interruptId: 'i1', status: 'cancelled' }])).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(2);
  });

  it('an agent that stamps nothing leaves the machine clock as it is', async () => {
    const { source } = agentAt(-5 * MINUTE, 2 * MINUTE, false);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
    // The machine's clock says the window closed three minutes ago.
    expect(await controller.resume(approve)).toMatchObject({ ok: false, errors: [{ code: 'EXPIRED' }] });
  });

  it.each([
    ['in seconds since the epoch', () => Math.floor(Date.now() / 1000)],
    ['in microseconds since the epoch', () => Date.now() * 1000],
    ['of zero', () => 0],
    ['before 2000', () => Date.parse('1999-12-31T23:59:59Z')],
    ['after 2200', () => Date.parse('2200-01-02T00:00:00Z')],
  ])('a stamp %s is no reading of a clock in ms, and changes nothing', async (_name, stampOf) => {
    const { source } = agentAt(0, 2 * MINUTE, () => stampOf());
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
  });

  it('older events (a replay, a buffer) do not pull the clock back: the freshest reading wins', async () => {
    let late = false;
    const { source } = agentAt(-5 * MINUTE, 2 * MINUTE, (n) => (late && n > 0 ? Date.now() - 60 * MINUTE : Date.now() - 5 * MINUTE));
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    late = true;
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
    expect(Math.abs(Date.now() - 5 * MINUTE - controller.now())).toBeLessThan(1_000);
  });

  it('the lead outlasts a pause of the page (a laptop asleep, a tab in the background): nothing the agent said is forgotten', async () => {
    const wall = Date.now;
    const { source } = agentAt(-5 * MINUTE, 2 * MINUTE, () => wall() - 5 * MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    // Ten seconds later by the wall clock, and none by the page's steady clock (as a browser that stops it in sleep).
    vi.spyOn(Date, 'now').mockImplementation(() => wall() + 10_000);
    vi.spyOn(performance, 'now').mockReturnValue(0);
    expect(Math.abs(wall() + 10_000 - 5 * MINUTE - controller.now())).toBeLessThan(1_000);
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
  });

  it('a stamp more than a day off is a broken stamp, not a clock: it changes nothing', async () => {
    const { source } = agentAt(0, 2 * MINUTE, (n) => (n === 0 ? Date.parse('2199-01-01T00:00:00Z') : Date.now() + 25 * 60 * MINUTE));
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
  });

  it("an application's own now() is the clock, whatever the agent stamps", async () => {
    const fixed = Date.parse('2026-11-30T12:00:00Z');
    const { source } = agentAt(-5 * MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler, now: () => fixed });
    await controller.run('refund');
    expect(controller.now()).toBe(fixed);
  });

  it('a new thread (reset) forgets nothing it needs: the agent is the same agent', async () => {
    const { source } = agentAt(-5 * MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    controller.reset();
    expect(Math.abs(Date.now() - 5 * MINUTE - controller.now())).toBeLessThan(1_000);
  });
});

describe("an agent that stamps nothing: its HTTP answer's Date header", () => {
  /**
   * An SSE agent whose clock is `skew` ms off the machine's: its Date header says so (`dateSkew`: a proxy's header,
   * that much off instead), and its events carry a stamp only when `stamp` is given.
   */
  async function sseAgentAt(skew: number, { dateSkew = skew, stamp = false, status = 200 } = {}) {
    const requests: RunAgentInput[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const input = JSON.parse(body) as RunAgentInput;
        const n = requests.push(input) - 1;
        const agentNow = Date.now() + skew;
        const date = new Date(Date.now() + dateSkew).toUTCString();
        if (status !== 200) {
          res.writeHead(status, { 'Content-Type': 'text/plain', Date: date });
          res.end('Bad gateway');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/event-stream', Date: date });
        const expiresAt = new Date(agentNow + 2 * MINUTE).toISOString();
        const events = [
          started(input),
          n === 0
            ? finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', expiresAt }] } })
            : finished(input),
        ];
        const sent = stamp ? events.map((e) => ({ ...e, timestamp: agentNow })) : events;
        res.end(sent.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
      });
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    return { source: httpSseSource({ url: `http://127.0.0.1:${port}/agent` }), requests };
  }

  it('a machine 5 minutes fast keeps to the server time the Date header gives, to the second', async () => {
    const { source, requests } = await sseAgentAt(-5 * MINUTE);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    const lag = Date.now() - 5 * MINUTE - controller.now();
    // The header is whole seconds: the reading is at most a second (and the trip) behind.
    expect(lag).toBeGreaterThanOrEqual(-50);
    expect(lag).toBeLessThan(3_000);
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
    expect(requests).toHaveLength(2);
  });

  it("a Date header within two seconds of the machine's clock changes nothing (it is read to the second)", async () => {
    const { source } = await sseAgentAt(500);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
  });

  it("a stamping agent's stamps win over a Date header (a proxy may have written it, minutes fast)", async () => {
    const { source } = await sseAgentAt(-5 * MINUTE, { dateSkew: 5 * MINUTE, stamp: true });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('refund');
    expect(Math.abs(Date.now() - 5 * MINUTE - controller.now())).toBeLessThan(1_000);
    expect(await controller.resume(approve)).toMatchObject({ ok: true });
  });

  it("a failed answer's Date header (a gateway's 502) is no reading", async () => {
    const { source } = await sseAgentAt(-5 * MINUTE, { status: 502 });
    const controller = createRunController({ source, scheduler: microScheduler });
    expect(await controller.run('refund')).toMatchObject({ status: 'error' });
    expect(Math.abs(controller.now() - Date.now())).toBeLessThan(50);
  });
});
