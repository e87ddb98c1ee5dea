import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { AgentChat, EventTimelinePanel, StateInspectorPanel } from '@aguikit/ui';
import { useEffect, useId, useMemo, useState } from 'react';
import type { PlaygroundMessages } from './i18n.js';
import type { LoadedSession } from './recording.js';

/** A replayed log never runs an agent. */
const silent: AgentSource = {
  run() {
    return (async function* () {})();
  },
};

/** A recorded session replayed with a scrubber: the thread as it was after any entry of its log. */
export function Replay({ log, t, onClose }: { log: LoadedSession; t: PlaygroundMessages; onClose: () => void }) {
  // A controller started from the saved session: its thread is the session's end, and stateAt gives any point.
  const store = useMemo(() => createAgentStore({ source: silent, log: log.entries }), [log]);
  useEffect(() => store.retain(), [store]);
  const last = store.session.entries.length - 1;
  const [at, setAt] = useState(last);
  const sliderId = useId();

  useEffect(() => {
    store.setState({ thread: store.stateAt(at) });
  }, [at, store]);

  return (
    <AgentProvider store={store}>
      <section className="pg__replay" aria-label={t.replay.region}>
        <div className="pg__scrubber">
          <label htmlFor={sliderId}>
            {t.replay.replaying} <strong>{log.name}</strong>: {t.replay.after(at + 1, last + 1, store.session.entries[at]?.type ?? '')}
          </label>
          <input id={sliderId} type="range" min={0} max={last} value={at} onChange={(e) => setAt(Number(e.target.value))} />
          <button type="button" className="agk-button" onClick={onClose}>
            {t.replay.back}
          </button>
          {log.errors.length ? <span className="pg__error">{t.replay.skipped(log.errors.length)}</span> : null}
        </div>
        <main className="pg__main">
          <div className="pg__chat">
            {/* A recording is read, not continued: no composer, no forms to answer its interrupts. */}
            <AgentChat readOnly />
          </div>
          <aside className="pg__side" aria-label={t.devtools}>
            <StateInspectorPanel />
            <EventTimelinePanel />
          </aside>
        </main>
      </section>
    </AgentProvider>
  );
}
