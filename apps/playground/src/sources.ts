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

/** Where the playground's runs come from: the scenario in the browser, the agent server, or a typed URL. */
export function sourceFor(c: Connection): AgentSource {
  if (c.mode === 'url') return httpSseSource({ url: c.url, reconnect: { attempts: 3, delayMs: 300 } });
  if (c.mode === 'server') {
    return httpSseSource({ url: `/agents/${encodeURIComponent(c.scenarioId)}?speed=${c.speed}`, reconnect: { attempts: 3, delayMs: 300 } });
  }
  const scenario = findScenario(c.scenarioId);
  if (!scenario) throw new Error(`Unknown scenario ${c.scenarioId}`);
  return scriptedSource(scenario, { speed: c.speed });
}

/** A stable key: a new key means a new thread. */
export const connectionKey = (c: Connection) => `${c.mode}|${c.scenarioId}|${c.url}|${c.speed}|${c.approvalWindowMs ?? ''}`;

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
