// `pnpm dev`: the agent server and the playground together; Ctrl+C stops both.
import { spawn } from 'node:child_process';

const children = [
  ['server', ['--filter', '@aguikit/agent-server', 'start']],
  ['playground', ['--filter', '@aguikit/playground', 'dev']],
].map(([name, args]) => {
  const child = spawn('pnpm', args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = (data) =>
    String(data)
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout.on('data', (d) => process.stdout.write(prefix(d)));
  child.stderr.on('data', (d) => process.stderr.write(prefix(d)));
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`[${name}] exited with ${code}; stopping`);
      stop(code ?? 1);
    }
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
console.log('aguikit: open http://127.0.0.1:5173 (the agent server listens on http://127.0.0.1:8787)');
