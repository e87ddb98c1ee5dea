/**
 * examples/vite-app installed from the tarballs with plain npm, outside the
 * workspace, on React 19 and on React 18: strict `tsc`, `vite build`, then the
 * refund flow in Chromium against the real agent server, through the app's
 * own `/api/agent` proxy. On React 19 also: the chat rendered on the server
 * (`renderToString`) and hydrated in the browser without a warning.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentServer } from '../apps/agent-server/src/server.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.js';
import { agentServer, conversationOnPhone, freePort, type Installed, installExample, refundFlow, run, serve } from './harness.js';

const REACT_18 = { react: '^18.3.1', 'react-dom': '^18.3.1', '@types/react': '^18.3.0', '@types/react-dom': '^18.3.0' };

for (const [label, extra] of [
  ['React 19', {}],
  ['React 18', REACT_18],
] as const) {
  describe(`examples/vite-app from the tarballs, ${label}`, () => {
    let app: Installed;
    let agent: Awaited<ReturnType<typeof agentServer>>;
    let server: AgentServer;
    // The app's preview port, known before the agent server starts: Vite's proxy passes the page's Origin on.
    let port: number;

    beforeAll(async () => {
      app = await installExample('vite-app', extra);
      port = await freePort();
      agent = await agentServer([`http://127.0.0.1:${port}`]);
      server = agent.server;
    });

    afterAll(async () => {
      await agent?.close();
      await app?.remove();
    });

    it('installs the React it asked for', async () => {
      const pkg = JSON.parse(await readFile(join(app.dir, 'node_modules/react/package.json'), 'utf8')) as { version: string };
      expect(pkg.version.split('.')[0]).toBe(label === 'React 18' ? '18' : '19');
    });

    it('typechecks with strict tsc', async () => {
      await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: app.dir });
    });

    it('builds with vite build', async () => {
      await run('npx', ['vite', 'build'], { cwd: app.dir });
    });

    it('runs the refund flow in Chromium: approved in the generated form, Done, the card settled, one refund', async () => {
      const preview = await serve('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
        cwd: app.dir,
        env: { ...process.env, AGENT_URL: `${server.url}/agents/refund` },
        url: `http://127.0.0.1:${port}/`,
      });
      try {
        const flow = await refundFlow(preview.url, async (page) => {
          // The app's own card for lookup_order, through toolRenderers.
          expect(await page.locator('.order-card[data-order="A-1001"]').textContent()).toContain('Ceramic teapot');
        });
        expect(flow.status).toBe('Done');
        expect(flow.problems).toEqual([]);
        expect(server.effects().map((e) => e.kind)).toEqual(['refund']);
        // On a phone the conversation keeps most of the screen, not the few lines a parent without a height leaves it.
        const phone = await conversationOnPhone(preview.url);
        expect(phone.height).toBeGreaterThan(phone.viewport / 2);
      } finally {
        await preview.stop();
      }
    });

    it('renders AgentChat on the server and hydrates it in the browser without a warning', async () => {
      await hydrationCheck(app.dir);
    });
  });
}

/** The tree both sides render: the chat over a store that never runs (the server never fetches). */
const TREE = `import { AgentProvider, useAgentRun } from '@aguikit/react';
import { AgentChat } from '@aguikit/ui';

export function Tree() {
  const agent = useAgentRun({ url: '/api/agent' });
  return (
    <AgentProvider store={agent.store}>
      <AgentChat placeholder="Ask about an order" />
    </AgentProvider>
  );
}
`;

const HYDRATE = `import '@aguikit/ui/styles.css';
import { hydrateRoot } from 'react-dom/client';
import { Tree } from './Tree';

const w = window as unknown as { recoverable: string[]; hydrated: boolean };
w.recoverable = [];
const root = document.getElementById('root');
if (!root) throw new Error('no #root');
hydrateRoot(root, <Tree />, { onRecoverableError: (e) => w.recoverable.push(String(e)) });
w.hydrated = true;
`;

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><link rel="icon" href="data:," /><title>hydrate</title></head>
<body><div id="root"><!--ssr--></div><script type="module" src="/src/hydrate.tsx"></script></body></html>
`;

async function hydrationCheck(dir: string) {
  await writeFile(join(dir, 'src/Tree.tsx'), TREE);
  await writeFile(join(dir, 'src/hydrate.tsx'), HYDRATE);
  await writeFile(join(dir, 'hydrate.html'), HTML);
  await writeFile(
    join(dir, 'vite.hydrate.config.ts'),
    `import base from './vite.config';\nexport default { ...base, build: { outDir: 'dist-hydrate', rollupOptions: { input: { hydrate: 'hydrate.html' } } } };\n`,
  );
  await run('npx', ['vite', 'build', '-c', 'vite.hydrate.config.ts'], { cwd: dir });
  await run('npx', ['vite', 'build', '--ssr', 'src/Tree.tsx', '--outDir', 'dist-ssr'], { cwd: dir });
  // Rendered by Node from the packages' server-side graph, as an SSR framework would.
  const rendered = await run(
    'node',
    [
      '--input-type=module',
      '-e',
      `import { createElement } from 'react';
       import { renderToString } from 'react-dom/server';
       import { Tree } from './dist-ssr/Tree.js';
       const errors = [];
       console.error = (...a) => errors.push(a.join(' '));
       console.warn = (...a) => errors.push(a.join(' '));
       const html = renderToString(createElement(Tree));
       process.stdout.write(JSON.stringify({ html, errors }));`,
    ],
    { cwd: dir },
  );
  const { html, errors } = JSON.parse(rendered.output) as { html: string; errors: string[] };
  expect(errors).toEqual([]);
  expect(html).toContain('agk-chat');
  const page = join(dir, 'dist-hydrate/hydrate.html');
  await writeFile(page, (await readFile(page, 'utf8')).replace('<!--ssr-->', html));

  const port = await freePort();
  const preview = await serve('npx', ['vite', 'preview', '-c', 'vite.hydrate.config.ts', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: dir,
    url: `http://127.0.0.1:${port}/hydrate.html`,
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()} (${m.location().url})`);
    });
    tab.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await tab.goto(preview.url);
    await tab.waitForFunction(() => (window as unknown as { hydrated?: boolean }).hydrated === true);
    // Hydrated, not re-rendered: typing reaches React's state (the send button enables).
    const composer = tab.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill('hello');
    await tab.waitForTimeout(200);
    const recoverable = await tab.evaluate(() => (window as unknown as { recoverable: string[] }).recoverable);
    expect({ problems, recoverable }).toEqual({ problems: [], recoverable: [] });
  } finally {
    await browser.close();
    await preview.stop();
  }
}
