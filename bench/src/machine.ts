import os from 'node:os';

export interface Machine {
  readonly node: string;
  readonly v8: string;
  readonly cpu: string;
  readonly cores: number;
  readonly os: string;
  readonly memoryGb: number;
}

/** The machine the figures come from: ratios travel between machines better than times, but neither is universal. */
export function machine(): Machine {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
  };
}

export function describeMachine(m: Machine): string {
  return `Node ${m.node} (V8 ${m.v8}), ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GiB, ${m.os}`;
}
