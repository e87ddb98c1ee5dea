/**
 * Why a request failed is worked out by the engine's chunk, and the request is
 * built by the reader's: both loaded on demand, apart from the transport's
 * errors, which an application loads up front. Bundled as an application
 * bundles them, each failure still reads as what it is: an error made by one
 * chunk is recognised by another.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleApplication } from './support/bundle.js';

const CONSUMER = `
import { AgentTransportError, createRunController, httpSseSource } from '@aguikit/core';
const failing = (thrown) => ({
  run() {
    return (async function* () {
      throw thrown();
    })();
  },
});
async function failureOf(source) {
  const controller = createRunController({ source });
  await controller.run('Refund order 42');
  const { failure } = controller.getSnapshot();
  controller.destroy();
  return failure && { code: failure.code, retryable: failure.retryable, status: failure.status, message: failure.message };
}
export async function run() {
  const answered = (status, body) => async () => new Response(body, { status });
  return {
    gateway: await failureOf(failing(() => new AgentTransportError('HTTP_STATUS', 'HTTP 503', 503, 'busy'))),
    offline: await failureOf(failing(() => new TypeError('Failed to fetch'))),
    http503: await failureOf(httpSseSource({ url: 'https://agent.example/run', fetch: answered(503, '{"error":{"message":"overloaded"}}') })),
    http404: await failureOf(httpSseSource({ url: 'https://agent.example/run', fetch: answered(404, 'no such agent') })),
    badUrl: await failureOf(httpSseSource({ url: 'ftp://agent.example/run' })),
    badHeader: await failureOf(
      httpSseSource({ url: 'https://agent.example/run', headers: () => ({ Authorization: 'Bearer tok\\nen' }), fetch: answered(200, '') }),
    ),
  };
}
`;

describe('a failed request in an application bundle', () => {
  it('reads as the same failure as from source: transport errors made in one chunk are recognised in the engine chunk', async () => {
    const bundle = await bundleApplication(CONSUMER);
    onTestFinished(bundle.remove);
    const bundled = await bundle.load<{ run(): Promise<Record<string, Record<string, unknown>>> }>();
    const failures = await bundled.run();
    expect(failures.gateway).toMatchObject({ code: 'HTTP_STATUS', status: 503, retryable: true });
    expect(failures.offline).toMatchObject({ code: 'NETWORK', retryable: true });
    expect(failures.http503).toMatchObject({ code: 'HTTP_STATUS', status: 503, retryable: true });
    expect(failures.http503?.message).toBe('The agent could not take the request (HTTP 503); try again. It said: overloaded');
    expect(failures.http404).toMatchObject({ code: 'HTTP_STATUS', status: 404, retryable: false });
    expect(failures.badUrl).toMatchObject({ code: 'INVALID_URL', retryable: false });
    expect(failures.badHeader).toMatchObject({ code: 'INVALID_REQUEST', retryable: false });
    expect(failures.badHeader?.message).toContain('"Authorization"');
    expect(failures.badHeader?.message).not.toContain('tok');
  }, 60_000);
});
