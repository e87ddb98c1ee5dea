import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { AgentChat, EventTimelinePanel, StateInspectorPanel } from '@aguikit/ui';
import { useEffect, useId, useMemo, useState } from 'react';
import { type LoadedLog, statesOf } from './recording.js';

/** A replayed log never runs an agent. */
const silent: AgentSource = {
  run() {
    return (async function* () {})();
  },
};

/** A recorded session replayed with a scrubber: the thread as it was after any event. */
export function Replay({ log, onClose }: { log: LoadedLog; onClose: () => void }) {
  const states = useMemo(() => statesOf(log.entries), [log]);
  const store = useMemo(() => {
    const s = createAgentStore({ source: silent });
    for (const entry of log.entries) s.log.record(entry.event, entry.receivedAt);
    return s;
  }, [log]);
  const [at, setAt] = useState(log.entries.length);
  const sliderId = useId();

  useEffect(() => {
    const thread = states[at];
    if (thread) store.setState({ thread, eventCount: at });
  }, [at, states, store]);

  return (
    <AgentProvider store={store}>
      <section className="pg__replay" aria-label="Replay">
        <div className="pg__scrubber">
          <label htmlFor={sliderId}>
            Replaying <strong>{log.name}</strong>: after event {at} of {log.entries.length}
          </label>
          <input id={sliderId} type="range" min={0} max={log.entries.length} value={at} onChange={(e) => setAt(Number(e.target.value))} />
          <button type="button" className="agk-button" onClick={onClose}>
            Back to live
          </button>
          {log.errors.length ? <span className="pg__error">{log.errors.length} unreadable line(s) skipped</span> : null}
        </div>
        <main className="pg__main">
          <div className="pg__chat">
            <AgentChat />
          </div>
          <aside className="pg__side" aria-label="Devtools">
            <StateInspectorPanel />
            <EventTimelinePanel />
          </aside>
        </main>
      </section>
    </AgentProvider>
  );
}
