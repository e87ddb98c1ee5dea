import { type AgentSource, httpSseSource } from '@aguikit/core';
import { findScenario, scriptedSource } from '@aguikit/scenarios';

export type Mode = 'browser' | 'server' | 'url';

export interface Connection {
  mode: Mode;
  scenarioId: string;
  /** For `url`: any AG-UI endpoint. */
  url: string;
  speed: number;
  /** How long a refund approval stays open (ms), for trying expiry; the scenario's default when absent. */
  approvalWindowMs?: number;
}

/** How long the agent server may say nothing (not even its 15 s ping) before its stream is taken as lost. */
export const SERVER_SILENCE_MS = 45_000;

/** Where the playground's runs come from, at a given speed: the scenario in the browser, the agent server, or a typed URL. */
function sourceAt(c: Connection, speed: number): AgentSource {
  if (c.mode === 'url') return httpSseSource({ url: c.url, reconnect: { attempts: 3, delayMs: 300 } });
  if (c.mode === 'server') {
    return httpSseSource({
      url: `/agents/${encodeURIComponent(c.scenarioId)}?speed=${speed}`,
      reconnect: { attempts: 3, delayMs: 300 },
      // The agent server pings every 15 s: three missed pings is a dead server, whose socket the dev proxy may keep open.
      idleTimeoutMs: SERVER_SILENCE_MS,
    });
  }
  const scenario = findScenario(c.scenarioId);
  if (!scenario) throw new Error(`Unknown scenario ${c.scenarioId}`);
  return scriptedSource(scenario, { speed });
}

/**
 * The connection's source. Each run goes at the speed `speed()` gives as it
 * starts, so changing the speed keeps the thread: it applies from the next
 * run (or reconnect) of the same conversation.
 */
export function sourceFor(c: Connection, speed: () => number = () => c.speed): AgentSource {
  const bySpeed = new Map<number, AgentSource>();
  const current = (): AgentSource => {
    const at = c.mode === 'url' ? 0 : speed();
    let source = bySpeed.get(at);
    if (!source) {
      source = sourceAt(c, at);
      bySpeed.set(at, source);
    }
    return source;
  };
  // Every source of a mode is of one kind: what the first offers, they all do.
  const first = current();
  return {
    run: (input, options) => current().run(input, options),
    ...(first.deliver ? { deliver: (input, options, onEvent) => current().deliver?.(input, options, onEvent) ?? Promise.resolve() } : {}),
    ...(first.capabilities ? { capabilities: () => first.capabilities?.() ?? Promise.resolve(undefined) } : {}),
  };
}

/** A stable key: a new key means a new thread. The speed is not in it: a new speed applies from the next run. */
export const connectionKey = (c: Connection) => `${c.mode}|${c.scenarioId}|${c.url}|${c.approvalWindowMs ?? ''}`;

/** Reads the connection from the page URL, so a link opens the same setup. */
export function connectionFromLocation(search: string): Connection {
  const params = new URLSearchParams(search);
  const mode = params.get('mode');
  const scenarioId = params.get('scenario') ?? 'refund';
  const speed = Number(params.get('speed') ?? 1);
  const windowMs = Number(params.get('approvalWindowMs'));
  return {
    mode: mode === 'server' || mode === 'url' ? mode : 'browser',
    scenarioId: findScenario(scenarioId) ? scenarioId : 'refund',
    url: params.get('url') ?? '',
    speed: Number.isFinite(speed) && speed > 0 ? speed : 1,
    ...(Number.isFinite(windowMs) && windowMs > 0 ? { approvalWindowMs: windowMs } : {}),
  };
}

/** The page URL's query for a connection (and the page's language, when not English). */
export function connectionToSearch(c: Connection, lang = 'en'): string {
  const params = new URLSearchParams({ mode: c.mode, scenario: c.scenarioId, speed: String(c.speed) });
  if (c.mode === 'url') params.set('url', c.url);
  if (c.approvalWindowMs !== undefined) params.set('approvalWindowMs', String(c.approvalWindowMs));
  if (lang !== 'en') params.set('lang', lang);
  return `?${params}`;
}
