/**
 * Origin safety: which pages and which host names may reach the server, what
 * a request must look like before it does anything, and what a refusal gives
 * away. Every request here is a real HTTP request to a real server.
 */
import { request as httpRequest } from 'node:http';
import type { RunAgentInput } from '@aguikit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultHosts, defaultOrigins, originPolicy } from '../src/http/origin.js';
import type { AgentServer } from '../src/server.js';
import { interruptsOf, post, readEvents, startServer, userInput } from './support.js';

const PLAYGROUND = 'http://127.0.0.1:5173';
const EVIL = 'http://127.0.0.1:6666';

/** A raw request with the headers exactly as given (fetch forbids setting Host). */
function raw(
  server: AgentServer,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), method: options.method, path: options.path, headers: options.headers, setHost: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The refund flow's first run, streamed to its end by a legitimate client: its approval id. */
async function openRefund(server: AgentServer, threadId: string, runId: string): Promise<string> {
  const response = await post(server, '/agents/refund?speed=0', userInput(threadId, runId));
  expect(response.status).toBe(200);
  const id = interruptsOf(await readEvents(response))[0]?.id;
  if (!id) throw new Error('no approval opened');
  return id;
}

function approve(threadId: string, interruptId: string, runId: string): RunAgentInput {
  return { ...userInput(threadId, runId), messages: [], resume: [{ interruptId, status: 'resolved', payload: { approved: true } }] };
}

const effects = async (server: AgentServer) => (await (await fetch(`${server.url}/effects`)).json()) as unknown[];

const envBefore = { ...process.env };
afterEach(() => {
  for (const key of ['AGENT_ALLOWED_ORIGINS', 'AGENT_ALLOWED_HOSTS', 'PLAYGROUND_PORT']) {
    if (envBefore[key] === undefined) delete process.env[key];
    else process.env[key] = envBefore[key];
  }
});

describe('another origin can neither start, read nor approve anything', () => {
  it('refuses a cross-origin text/plain POST (a simple request, no preflight) before it does anything', async () => {
    const server = await startServer();
    const body = JSON.stringify(userInput('t', 'r1'));
    const response = await fetch(`${server.url}/agents/refund?speed=0`, {
      method: 'POST',
      headers: { Origin: EVIL, 'Content-Type': 'text/plain;charset=UTF-8' },
      body,
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('ORIGIN_NOT_ALLOWED');
    // The same body as application/json from that origin: refused all the same.
    const json = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'), { Origin: EVIL });
    expect(json.status).toBe(403);
    // No run was started: the run id is free and the thread has nothing open.
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t', 'r1', 'something else entirely'));
    expect(fresh.status).toBe(200);
    await readEvents(fresh);
  });

  it('refuses a cross-origin approval even with the right interrupt id, and makes no refund', async () => {
    const server = await startServer();
    const id = await openRefund(server, 't', 'r1');
    const response = await fetch(`${server.url}/agents/refund?speed=0`, {
      method: 'POST',
      headers: { Origin: EVIL, 'Content-Type': 'text/plain' },
      body: JSON.stringify(approve('t', id, 'r2')),
    });
    expect(response.status).toBe(403);
    expect(await effects(server)).toEqual([]);
    // The interrupt is still open for the real reviewer.
    const ok = await post(server, '/agents/refund?speed=0', approve('t', id, 'r2'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
    expect(await effects(server)).toHaveLength(1);
  });

  it('never sends Access-Control-Allow-Origin: * ; the allowed origin alone is granted', async () => {
    const server = await startServer();
    const targets: [string, RequestInit][] = [
      ['/health', {}],
      ['/agents', {}],
      ['/effects', {}],
      ['/nope', {}],
      ['/agents/refund', { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }],
    ];
    for (const [path, init] of targets) {
      for (const origin of [undefined, PLAYGROUND, 'http://localhost:5173', EVIL, 'null', 'http://127.0.0.1:5173.evil.example']) {
        const response = await fetch(`${server.url}${path}`, {
          ...init,
          headers: { ...(init.headers ?? {}), ...(origin ? { Origin: origin } : {}) },
        });
        const granted = response.headers.get('access-control-allow-origin');
        expect(granted, `${path} from ${origin}`).not.toBe('*');
        const allowed = origin === PLAYGROUND || origin === 'http://localhost:5173';
        expect(granted, `${path} from ${origin}`).toBe(allowed ? origin : null);
        if (origin && !allowed) expect(response.status, `${path} from ${origin}`).toBe(403);
      }
    }
    const stream = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'), { Origin: PLAYGROUND });
    expect(stream.headers.get('access-control-allow-origin')).toBe(PLAYGROUND);
    await readEvents(stream);
  });

  it('takes its allowed origins from the option, or from AGENT_ALLOWED_ORIGINS', async () => {
    const byOption = await startServer({ allowedOrigins: ['https://app.example'] });
    expect((await fetch(`${byOption.url}/agents`, { headers: { Origin: 'https://app.example' } })).status).toBe(200);
    expect((await fetch(`${byOption.url}/agents`, { headers: { Origin: PLAYGROUND } })).status).toBe(403);
    process.env.AGENT_ALLOWED_ORIGINS = ' https://a.example , https://b.example ';
    const byEnv = await startServer();
    for (const origin of ['https://a.example', 'https://b.example'])
      expect((await fetch(`${byEnv.url}/agents`, { headers: { Origin: origin } })).headers.get('access-control-allow-origin')).toBe(origin);
    expect((await fetch(`${byEnv.url}/agents`, { headers: { Origin: PLAYGROUND } })).status).toBe(403);
    delete process.env.AGENT_ALLOWED_ORIGINS;
    process.env.PLAYGROUND_PORT = '3000';
    const devPort = await startServer();
    expect((await fetch(`${devPort.url}/agents`, { headers: { Origin: 'http://localhost:3000' } })).status).toBe(200);
    expect((await fetch(`${devPort.url}/agents`, { headers: { Origin: PLAYGROUND } })).status).toBe(200);
  });
});

describe('the Host header names this server (DNS rebinding)', () => {
  it('refuses a request for another host name with 421, before it does anything', async () => {
    const server = await startServer();
    const { port } = new URL(server.url);
    const body = JSON.stringify(userInput('t', 'r1'));
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`, `localhost.evil.example:${port}`, '']) {
      const response = await raw(server, {
        method: 'POST',
        path: '/agents/refund?speed=0',
        headers: { Host: host, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
        body,
      });
      expect(response.status, host).toBe(421);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
    const read = await raw(server, { method: 'GET', path: '/effects', headers: { Host: `rebound.example:${port}` } });
    expect(read.status).toBe(421);
    // Nothing was started: the run id is free.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const ok = await raw(server, { method: 'GET', path: '/health', headers: { Host: host } });
      expect(ok.status, host).toBe(200);
    }
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t', 'r1', 'another input'));
    expect(fresh.status).toBe(200);
    await readEvents(fresh);
  });

  it("names a host or an origin on its scheme's default port with the port or without, as browsers send them", () => {
    // On port 80 a browser sends `Host: localhost` and `Origin: http://localhost`.
    const onEighty = originPolicy(defaultOrigins({ PLAYGROUND_PORT: '80' }), defaultHosts(80, '127.0.0.1'));
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'localhost:80']) expect(onEighty.allowsHost(host), host).toBe(true);
    for (const host of ['evil.example', '127.0.0.1:8080', 'localhost:443:80', 'localhost:', 'localhost:443'])
      expect(onEighty.allowsHost(host), host).toBe(false);
    expect(onEighty.allowsOrigin('http://localhost')).toBe(true);
    expect(onEighty.allowsOrigin('https://localhost')).toBe(false);
    // Configured with the default port written out, or in capitals, or with a path.
    const configured = originPolicy(
      ['https://App.Example.com:443/', 'http://dev.example:8080'],
      ['agents.example.com:443', 'agents.example.com:80'],
    );
    expect(configured.allowsOrigin('https://app.example.com')).toBe(true);
    // An Origin header is compared as a browser sends it, not parsed: what no browser sends is refused.
    expect(configured.allowsOrigin('https://app.example.com:443')).toBe(false);
    expect(configured.allowsOrigin('https://evil@app.example.com')).toBe(false);
    expect(configured.allowsOrigin('http://app.example.com')).toBe(false);
    expect(configured.allowsOrigin('http://dev.example:8080')).toBe(true);
    expect(configured.allowsOrigin('http://dev.example')).toBe(false);
    expect(configured.allowsOrigin('null')).toBe(false);
    expect(configured.allowsHost('agents.example.com')).toBe(true);
    expect(configured.allowsHost('agents.example.com:8443')).toBe(false);
    // Allowed on 443 only: a request naming port 80 is not for it.
    expect(originPolicy([], ['api.example.com:443']).allowsHost('api.example.com:80')).toBe(false);
    expect(originPolicy([], ['api.example.com:443']).allowsHost('api.example.com')).toBe(true);
  });

  it('takes its allowed hosts from the option, or from AGENT_ALLOWED_HOSTS', async () => {
    const server = await startServer({ allowedHosts: ['agents.internal'] });
    expect((await raw(server, { method: 'GET', path: '/health', headers: { Host: 'agents.internal' } })).status).toBe(200);
    expect((await raw(server, { method: 'GET', path: '/health', headers: { Host: new URL(server.url).host } })).status).toBe(421);
    process.env.AGENT_ALLOWED_HOSTS = 'a.internal:1,b.internal:2';
    const byEnv = await startServer();
    expect((await raw(byEnv, { method: 'GET', path: '/health', headers: { Host: 'b.internal:2' } })).status).toBe(200);
    expect((await raw(byEnv, { method: 'GET', path: '/health', headers: { Host: 'c.internal:3' } })).status).toBe(421);
  });
});

describe('a request target that is no URL is refused under the same rules as any other request', () => {
  it.each([
    ['no URL', '/agents/%E0%A4%A', 400, 'MALFORMED_URL'],
    ['a scenario name longer than any route takes', `/agents/${'x'.repeat(101)}`, 414, 'PATH_TOO_LONG'],
  ])(
    'names the host and the origin before the target (%s): the allowed page can read the refusal, nobody else gets more than 421 or 403',
    async (_name, path, status, code) => {
      const server = await startServer();
      const { port } = new URL(server.url);
      const body = JSON.stringify(userInput('t', 'r1'));
      const send = (headers: Record<string, string>) =>
        raw(server, {
          method: 'POST',
          path,
          headers: {
            Host: `127.0.0.1:${port}`,
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
            ...headers,
          },
          body,
        });
      const allowed = await send({ Origin: PLAYGROUND });
      expect(allowed.status).toBe(status);
      expect(JSON.parse(allowed.body)).toMatchObject({ error: { code } });
      expect(allowed.headers['access-control-allow-origin']).toBe(PLAYGROUND);
      expect(allowed.headers.vary).toBe('Origin');
      const evil = await send({ Origin: EVIL });
      expect(evil.status).toBe(403);
      expect(JSON.parse(evil.body)).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      const rebound = await send({ Host: `evil.example:${port}` });
      expect(rebound.status).toBe(421);
      expect(JSON.parse(rebound.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
      // Without an Origin (a tool, not a page): the refusal alone.
      const plain = await send({});
      expect(plain.status).toBe(status);
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    },
  );
});

describe('a POST must be application/json', () => {
  it('answers any other body type with 415 before reading it, with or without an Origin', async () => {
    const server = await startServer();
    const body = JSON.stringify(userInput('t', 'r1'));
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'application/json-patch+json',
      'application/json; charset=latin1',
      '',
    ]) {
      for (const origin of [undefined, PLAYGROUND]) {
        const response = await raw(server, {
          method: 'POST',
          path: '/agents/refund?speed=0',
          headers: {
            Host: new URL(server.url).host,
            ...(type ? { 'Content-Type': type } : {}),
            ...(origin ? { Origin: origin } : {}),
            'Content-Length': String(Buffer.byteLength(body)),
          },
          body,
        });
        expect(response.status, `${type} from ${origin}`).toBe(415);
        expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
      }
    }
    // application/json is accepted with a UTF-8 charset, in any case.
    for (const [i, type] of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"'].entries()) {
      const ok = await post(server, '/agents/clarification?speed=0', userInput(`ok-${i}`, `ok-${i}`), { 'Content-Type': type });
      expect(ok.status, type).toBe(200);
      await readEvents(ok);
    }
  });
});

describe('interrupts cannot be guessed, and refusals do not list them', () => {
  it('mixes a random per-run nonce into the approval id: the predictable id is refused and refunds nothing', async () => {
    const a = await startServer();
    const b = await startServer();
    const idA = await openRefund(a, 't', 'r1');
    const idB = await openRefund(b, 't', 'r1');
    // The same run id, thread and clock on two servers: two different ids, each 128 random bits.
    expect(idA).toMatch(/^r1\.[0-9a-f]{32}-refund-approval$/);
    expect(idB).toMatch(/^r1\.[0-9a-f]{32}-refund-approval$/);
    expect(idA).not.toBe(idB);
    for (const guess of ['r1-refund-approval', 'r1.-refund-approval', `r1.${'0'.repeat(32)}-refund-approval`]) {
      const response = await post(a, '/agents/refund?speed=0', approve('t', guess, `r-${guess.length}`));
      expect(response.status, guess).toBe(422);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_INTERRUPT');
    }
    expect(await effects(a)).toEqual([]);
    // The id the run sent works, once.
    await readEvents(await post(a, '/agents/refund?speed=0', approve('t', idA, 'r2')));
    expect(await effects(a)).toEqual([expect.objectContaining({ kind: 'refund', key: idA })]);
  });

  it("gives every interrupt of every scenario an id with the run's nonce, not only the refund approval", async () => {
    const server = await startServer();
    const seen: string[] = [];
    for (const [scenario, run] of [
      ['clarification', 'c1'],
      ['escalation', 'e1'],
      ['two-interrupts', 'w1'],
      ['refund', 'f1'],
    ] as const) {
      const response = await post(server, `/agents/${scenario}?speed=0`, userInput(`t-${scenario}`, run));
      const ids = interruptsOf(await readEvents(response)).map((it) => it.id);
      expect(ids.length, scenario).toBeGreaterThan(0);
      for (const id of ids) expect(id, scenario).toMatch(new RegExp(`^${run}\\.[0-9a-f]{32}-[a-z-]+$`));
      seen.push(...ids);
    }
    expect(seen).toHaveLength(5);
  });

  it('says how many interrupts are open, never which', async () => {
    const server = await startServer();
    const id = await openRefund(server, 't', 'r1');
    const required = await post(server, '/agents/refund', userInput('t', 'r2', 'hello again'));
    expect(required.status).toBe(409);
    const text = await required.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'RESUME_REQUIRED', message: expect.stringContaining('1 open interrupt') } });
    expect(text).not.toContain(id);
    expect(text).not.toContain('refund-approval');

    const two = await post(server, '/agents/two-interrupts?speed=0', userInput('t2', 'x1'));
    const [one, other] = interruptsOf(await readEvents(two)).map((it) => it.id);
    const partial = { ...userInput('t2', 'x2'), messages: [], resume: [{ interruptId: one ?? '', status: 'cancelled' as const }] };
    const incomplete = await post(server, '/agents/two-interrupts', partial);
    expect(incomplete.status).toBe(409);
    const incompleteText = await incomplete.text();
    expect(JSON.parse(incompleteText)).toMatchObject({ error: { code: 'RESUME_INCOMPLETE' } });
    expect(incompleteText).not.toContain(other ?? 'none');
    const required2 = await post(server, '/agents/two-interrupts', userInput('t2', 'x3', 'hi'));
    const required2Text = await required2.text();
    expect(required2Text).toContain('2 open interrupts');
    for (const it of [one, other]) expect(required2Text).not.toContain(it ?? 'none');
  });
});
