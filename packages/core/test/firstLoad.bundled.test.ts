/**
 * What an application loads up front when it uses the run controller holds
 * none of the engine: a bundler (Vite, as an application builds with it) puts
 * the engine's files in a chunk loaded on demand, and the bundled controller
 * loads it and runs a conversation with it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleApplication } from './support/bundle.js';

const CONSUMER = `
import { createRunController } from '@aguikit/core';
export async function run() {
  const source = {
    run(input) {
      return (async function* () {
        yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
        yield { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '已为订单 A-1001 提交退款' };
        yield { type: 'TEXT_MESSAGE_END', messageId: 'm1' };
        yield { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/refund', value: 'A-1001' }] };
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      })();
    },
  };
  const controller = createRunController({ source, initialState: {} });
  await controller.run('请退款 A-1001');
  const { thread } = controller.getSnapshot();
  return { status: thread.run.status, reply: thread.messages.byId.get('m1')?.content, document: thread.sharedState.document };
}
`;

/** The engine's files: none of them may be in what loads up front. */
const ENGINE = [
  '/src/pipeline.ts',
  '/src/verify.ts',
  '/src/validate.ts',
  '/src/validateFields.ts',
  '/src/expand.ts',
  '/src/jsonPatch.ts',
  '/src/largeObject.ts',
  '/src/reducer/index.ts',
  '/src/reducer/run.ts',
  '/src/reducer/sharedState.ts',
  '/src/reducer/text.ts',
  // What only the event handlers share: a file the first load imports holds none of it.
  '/src/reducer/eventHelpers.ts',
  '/src/reducer/messagesSnapshot.ts',
  '/src/reducer/toolResult.ts',
  '/src/diagnostics.ts',
  // Why a request failed: asked for only once the engine has loaded, by a run that failed.
  '/src/controller/classifyFailure.ts',
  'fast-json-patch',
];

describe('the first load of an application using the run controller', () => {
  it('holds none of the engine, which a chunk of its own brings when the controller asks for it', async () => {
    const bundle = await bundleApplication(CONSUMER);
    onTestFinished(bundle.remove);
    const chunks = new Map(bundle.chunks.map((c) => [c.fileName, c]));
    const upFront = new Set<string>();
    const visit = (name: string) => {
      const chunk = chunks.get(name);
      if (!chunk || upFront.has(name)) return;
      upFront.add(name);
      for (const imported of chunk.imports) visit(imported);
    };
    for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
    const modulesUpFront = [...upFront].flatMap((name) => chunks.get(name)?.moduleIds ?? []);
    const lazyModules = [...chunks.values()].filter((c) => !upFront.has(c.fileName)).flatMap((c) => c.moduleIds);

    expect(modulesUpFront.some((id) => id.endsWith('/src/controller/controller.ts'))).toBe(true);
    expect(ENGINE.filter((file) => modulesUpFront.some((id) => id.includes(file)))).toEqual([]);
    expect(ENGINE.filter((file) => !lazyModules.some((id) => id.includes(file)))).toEqual([]);

    const bundled = await bundle.load<{ run(): Promise<unknown> }>();
    expect(await bundled.run()).toEqual({ status: 'success', reply: '已为订单 A-1001 提交退款', document: { refund: 'A-1001' } });
  }, 60_000);
});
