/**
 * Global setup of the e2e project: builds the playground once, serves the
 * build with `vite preview` on loopback, and picks the port the agent server
 * will listen on. The agent server itself is started by each test, in the
 * test's own process, so the test can read its side effects, kill it and
 * start it again on the same port and data directory.
 */
import type { TestProject } from 'vitest/node';
import { freePort, servePlayground } from './harness.js';

export default async function setup(project: TestProject) {
  const agentPort = await freePort();
  const playground = await servePlayground(`http://127.0.0.1:${agentPort}`);
  project.provide('playgroundUrl', playground.url);
  project.provide('agentPort', agentPort);
  return () => playground.close();
}
