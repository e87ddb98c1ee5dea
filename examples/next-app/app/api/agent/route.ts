// Proxies the browser's AG-UI requests to the agent, streaming its SSE back
// as it comes: the agent's address (and any key it needs) stays on the server.
const AGENT_URL = process.env.AGENT_URL ?? 'http://127.0.0.1:8787/agents/refund';

// A POST handler is dynamic already: no route segment config (which cacheComponents refuses) is needed.
export async function POST(request: Request): Promise<Response> {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'text/event-stream' });
  // A reconnect resumes after the last event the browser saw.
  const lastEventId = request.headers.get('last-event-id');
  if (lastEventId) headers.set('last-event-id', lastEventId);
  let upstream: Response;
  try {
    upstream = await fetch(AGENT_URL, { method: 'POST', headers, body: await request.text(), signal: request.signal });
  } catch {
    return Response.json({ error: 'The agent could not be reached.' }, { status: 502 });
  }
  return new Response(upstream.body, {
    status: upstream.status,
    headers: {
      'content-type': upstream.headers.get('content-type') ?? 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
    },
  });
}
