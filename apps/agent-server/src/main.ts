import { startAgentServer } from './server.js';

const port = Number(process.env.PORT ?? 8787);
const server = await startAgentServer({
  port,
  ...(process.env.AGENT_DATA_DIR ? { dataDir: process.env.AGENT_DATA_DIR } : {}),
  ...(process.env.AGENT_SPEED ? { speed: Number(process.env.AGENT_SPEED) } : {}),
});
console.log(`aguikit agent server on ${server.url} (POST /agents/:scenario, GET /agents)`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing open streams and stopping`);
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
