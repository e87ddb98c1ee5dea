/**
 * The server's settings from the environment (`main.ts`): a value that is no
 * number of the kind the variable takes stops the start with a message that
 * names the variable and the value as set, not an option the person never set.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../src/config.js';

const NUMERIC = [
  'PORT',
  'AGENT_SPEED',
  'AGENT_RUN_RETENTION_HOURS',
  'AGENT_MAX_CONNECTIONS',
  'AGENT_MAX_RUNS',
  'AGENT_MAX_RUNS_PER_ADDRESS',
  'AGENT_MEMORY_RUN_MB',
  'AGENT_MEMORY_RECORD_MB',
] as const;

describe('numeric settings from the environment', () => {
  for (const name of NUMERIC)
    for (const value of ['abc', '-5', '1e400', '12abc', 'Infinity'].concat(name === 'AGENT_SPEED' || name === 'PORT' ? [] : ['0'])) {
      it(`refuses ${name}='${value}' with a message that names the variable and the value`, () => {
        expect(() => optionsFromEnv({ [name]: value })).toThrow(
          new RegExp(`^${name} must be .*, not '${value.replace('+', '\\+')}'\\.$`, 'u'),
        );
      });
    }

  it("refuses an AGENT_LOG_LEVEL that is no level of the server's log, naming the variable, the value and the levels", () => {
    expect(() => optionsFromEnv({ AGENT_LOG_LEVEL: 'verbose' })).toThrow(
      /^AGENT_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent, not 'verbose'\.$/u,
    );
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      expect(optionsFromEnv({ AGENT_LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it('takes an empty value as unset: the default', () => {
    const options = optionsFromEnv(Object.fromEntries(NUMERIC.map((name) => [name, ''])));
    expect(options).toEqual({ port: 8787, logLevel: 'info' });
  });

  it('takes each value the server takes, converted to its option', () => {
    expect(
      optionsFromEnv({
        PORT: '9000',
        AGENT_SPEED: '0',
        AGENT_RUN_RETENTION_HOURS: '1.5',
        AGENT_MAX_CONNECTIONS: '10',
        AGENT_MAX_RUNS: '3',
        AGENT_MAX_RUNS_PER_ADDRESS: '2',
        AGENT_MEMORY_RUN_MB: '0.5',
        AGENT_MEMORY_RECORD_MB: '2',
      }),
    ).toEqual({
      port: 9000,
      speed: 0,
      logLevel: 'info',
      runRetentionMs: 5_400_000,
      maxConnections: 10,
      maxRuns: 3,
      maxRunsPerAddress: 2,
      maxMemoryRunBytes: 512 * 1024,
      maxMemoryRecordBytes: 2 * 1024 * 1024,
    });
  });

  it('stops main.ts before it listens, saying which variable and value are wrong', async () => {
    const app = fileURLToPath(new URL('..', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=@aguikit/source', '--import', 'tsx', 'src/main.ts'], {
      cwd: app,
      env: { ...process.env, AGENT_MEMORY_RUN_MB: 'abc', PORT: '0', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(output).toContain("AGENT_MEMORY_RUN_MB must be a number of MiB above 0, not 'abc'.");
    expect(output).not.toContain('maxMemoryRunBytes');
    expect(output).not.toContain('agent server on');
  }, 60_000);
});
