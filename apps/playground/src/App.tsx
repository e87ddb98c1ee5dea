import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { scenarios } from '@aguikit/scenarios';
import { AgentChat, EventTimelinePanel, StateInspectorPanel } from '@aguikit/ui';
import { useEffect, useMemo, useState } from 'react';
import { Replay } from './Replay.js';
import { downloadSession, type LoadedSession, readSessionFile } from './recording.js';
import { type Connection, connectionFromLocation, connectionKey, connectionToSearch, type Mode, sourceFor } from './sources.js';

type Theme = 'light' | 'dark';
type Panel = 'state' | 'events';

const SPEEDS = [0.5, 1, 2, 5, 20];

function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  return [theme, setTheme];
}

/** One store per connection: changing the scenario or the source starts a new thread. */
function useConnectionStore(connection: Connection): AgentStore {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when the thread must be new.
  const store = useMemo(
    () =>
      createAgentStore({
        source: sourceFor(connection),
        ...(connection.approvalWindowMs !== undefined ? { forwardedProps: { approvalWindowMs: connection.approvalWindowMs } } : {}),
      }),
    [connectionKey(connection)],
  );
  // The store a swap replaces is destroyed: its stream and tools stop with it.
  useEffect(() => store.retain(), [store]);
  return store;
}

export function App() {
  const [connection, setConnection] = useState<Connection>(() => connectionFromLocation(window.location.search));
  const [urlDraft, setUrlDraft] = useState(connection.url);
  const [theme, setTheme] = useTheme();
  const [panel, setPanel] = useState<Panel>('state');
  const [replay, setReplay] = useState<LoadedSession | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const store = useConnectionStore(connection);
  const scenario = scenarios[connection.scenarioId as keyof typeof scenarios];

  useEffect(() => {
    window.history.replaceState(null, '', connectionToSearch(connection));
  }, [connection]);

  const update = (patch: Partial<Connection>) => setConnection((c) => ({ ...c, ...patch }));

  const onLoad = async (file: File | undefined) => {
    if (!file) return;
    try {
      const log = await readSessionFile(file);
      if (log.entries.length === 0) throw new Error(log.errors[0]?.message ?? 'The file holds no events.');
      setLoadError(undefined);
      setReplay(log);
    } catch (e) {
      setLoadError(`Could not load ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <div className="agk-theme pg" data-theme={theme}>
      <header className="pg__bar">
        <h1 className="pg__title">aguikit playground</h1>
        <label className="pg__field">
          Scenario
          <select
            value={connection.scenarioId}
            onChange={(e) => update({ scenarioId: e.target.value })}
            disabled={connection.mode === 'url'}
          >
            {Object.values(scenarios).map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="pg__field pg__modes">
          <legend>Agent</legend>
          {(
            [
              ['browser', 'In the browser'],
              ['server', 'Agent server'],
              ['url', 'AG-UI URL'],
            ] as [Mode, string][]
          ).map(([mode, label]) => (
            <label key={mode}>
              <input type="radio" name="mode" checked={connection.mode === mode} onChange={() => update({ mode })} />
              {label}
            </label>
          ))}
        </fieldset>
        {connection.mode === 'url' ? (
          <form
            className="pg__field"
            onSubmit={(e) => {
              e.preventDefault();
              update({ url: urlDraft });
            }}
          >
            <label>
              Endpoint
              <input type="url" value={urlDraft} placeholder="https://host/agent" onChange={(e) => setUrlDraft(e.target.value)} />
            </label>
            <button type="submit" className="agk-button">
              Connect
            </button>
          </form>
        ) : (
          <label className="pg__field">
            Speed
            <select value={connection.speed} onChange={(e) => update({ speed: Number(e.target.value) })}>
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="pg__actions">
          <button type="button" className="agk-button" onClick={() => store.getState().reset()}>
            New thread
          </button>
          <button
            type="button"
            className="agk-button"
            onClick={() => downloadSession(store.session.entries, `aguikit-${connection.scenarioId}.jsonl`)}
          >
            Download events
          </button>
          <label className="agk-button pg__file">
            Load events…
            <input type="file" accept=".jsonl,.ndjson,.json,application/x-ndjson" onChange={(e) => void onLoad(e.target.files?.[0])} />
          </label>
          <button
            type="button"
            className="agk-button"
            aria-pressed={theme === 'dark'}
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
          >
            Dark theme
          </button>
        </div>
      </header>
      {loadError ? (
        <p role="alert" className="pg__error">
          {loadError}
        </p>
      ) : null}
      {replay ? (
        <Replay log={replay} onClose={() => setReplay(undefined)} />
      ) : (
        <AgentProvider store={store}>
          <main className="pg__main">
            <div className="pg__chat">
              {connection.mode !== 'url' && scenario ? (
                <p className="pg__hint">
                  <strong>{scenario.title}.</strong> {scenario.description} Try: <q>{scenario.prompt}</q>{' '}
                  <button type="button" className="agk-button" onClick={() => void store.getState().run(scenario.prompt)}>
                    Send this
                  </button>
                </p>
              ) : null}
              <AgentChat placeholder={scenario?.prompt ?? 'Message the agent'} />
            </div>
            <aside className="pg__side" aria-label="Devtools">
              <div role="tablist" aria-label="Devtools" className="pg__tabs">
                {(
                  [
                    ['state', 'Shared state'],
                    ['events', 'Events'],
                  ] as [Panel, string][]
                ).map(([id, label]) => (
                  <button
                    key={id}
                    type="button"
                    role="tab"
                    id={`tab-${id}`}
                    aria-controls={`panel-${id}`}
                    aria-selected={panel === id}
                    className="agk-button"
                    onClick={() => setPanel(id)}
                  >
                    {label}
                  </button>
                ))}
              </div>
              <div role="tabpanel" id={`panel-${panel}`} aria-labelledby={`tab-${panel}`} className="pg__panel">
                {panel === 'state' ? <StateInspectorPanel /> : <EventTimelinePanel />}
              </div>
            </aside>
          </main>
        </AgentProvider>
      )}
    </div>
  );
}
