import { Activity, type KeyboardEvent, type ReactNode, useId, useState } from 'react';

export interface TabsProps<Id extends string> {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly { id: Id; label: string }[];
  selected: Id;
  onSelect(id: Id): void;
  /** Each tab's content, drawn once its tab is first selected. */
  panels: Readonly<Record<Id, ReactNode>>;
}

/**
 * Tabs as the ARIA pattern has them: one tab in the Tab order (roving
 * tabindex), Left/Right arrows move to the previous/next tab and select it
 * (wrapping around), Home/End the first/last. Every tab's panel exists, so
 * each `aria-controls` names an element on the page. A panel is drawn once
 * its tab is first selected, and kept (hidden, in an `<Activity>`) when
 * another is: a look at the other tab keeps a filter typed, a row picked.
 *
 * @example
 * <Tabs label="Devtools" tabs={[{ id: 'state', label: 'Shared state' }]} selected="state" onSelect={setPanel}
 *   panels={{ state: <StateInspectorPanel /> }} />
 */
export function Tabs<Id extends string>({ label, tabs, selected, onSelect, panels }: TabsProps<Id>) {
  const base = useId();
  // The tabs ever selected: their panels are drawn, the others not yet (what only some readers open loads when opened).
  const [seen, setSeen] = useState<ReadonlySet<Id>>(() => new Set([selected]));
  if (!seen.has(selected)) setSeen(new Set([...seen, selected]));
  const tabId = (id: Id) => `${base}-tab-${id}`;
  const panelId = (id: Id) => `${base}-panel-${id}`;

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((t) => t.id === selected);
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    const tab = tabs[next];
    if (!tab) return;
    e.preventDefault();
    onSelect(tab.id);
    document.getElementById(tabId(tab.id))?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className="pg__tabs">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-controls={panelId(tab.id)}
            aria-selected={tab.id === selected}
            tabIndex={tab.id === selected ? 0 : -1}
            className="agk-button"
            onClick={() => onSelect(tab.id)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          hidden={tab.id !== selected}
          className="pg__panel"
        >
          {seen.has(tab.id) ? <Activity mode={tab.id === selected ? 'visible' : 'hidden'}>{panels[tab.id]}</Activity> : null}
        </div>
      ))}
    </>
  );
}
