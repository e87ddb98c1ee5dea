'use client';

import * as React from 'react';
import { type EventSummary, type IdRole, type SummaryPart, shortId } from './eventSummary.js';
import { type LocaleValue, useLocale } from './locale.js';

/** An id shortened to its first characters, its role in words before it, the whole id on hover. */
function IdText({ role, id }: { role: IdRole; id: string }) {
  const { messages } = useLocale();
  const short = shortId(id);
  return (
    <span className="agk-devtools__id" data-role={role} title={short === id ? undefined : id}>
      <span className="agk-devtools__id-role">{messages.devtools.summary.idRoles[role]}</span>{' '}
      <code className="agk-devtools__id-value">{short}</code>
    </span>
  );
}

function partText({ messages, format }: LocaleValue, part: SummaryPart): string {
  const s = messages.devtools.summary;
  switch (part.kind) {
    case 'count':
      return s[part.unit](part.n, format.number(part.n));
    case 'succeeded':
      return s.succeeded;
    case 'ended':
      return s.ended(part.outcome);
    case 'notAnEvent':
      return s.notAnEvent(part.what);
    case 'notAList':
      return s.notAList;
    case 'notAnOperation':
      return s.notAnOperation;
    default:
      return '';
  }
}

function Part({ part }: { part: SummaryPart }) {
  const locale = useLocale();
  switch (part.kind) {
    case 'text':
      // The agent's text is isolated from the summary around it: an Arabic delta in an English list, or the reverse, keeps its quotes.
      return (
        <span className="agk-devtools__text">
          “<bdi>{part.text}</bdi>”
        </span>
      );
    case 'json':
      return <code className="agk-devtools__json">{part.text}</code>;
    case 'name':
      return <bdi className="agk-devtools__name">{part.text}</bdi>;
    case 'op':
      return (
        <span className="agk-devtools__patch">
          <span className="agk-devtools__op" data-op={part.op}>
            {part.label}
          </span>{' '}
          <code className="agk-devtools__path">{part.path}</code>
          {part.from === undefined ? null : (
            <>
              {' '}
              <code className="agk-devtools__path">{locale.messages.devtools.json.from(part.from)}</code>
            </>
          )}
        </span>
      );
    case 'id':
      return <IdText role={part.role} id={part.id} />;
    default:
      return <span className="agk-devtools__count">{partText(locale, part)}</span>;
  }
}

/**
 * An event's summary in the locale: what changed first (operations joined by
 * commas), then sizes and shortened ids, separated by a dot hidden from
 * assistive technology. A line too narrow is cut with an ellipsis, before
 * the count of a delta's operations ("+2 more · 4 ops"), which stays whole.
 */
export function EventSummaryView({ summary, className }: { summary: EventSummary; className?: string }) {
  const groups: SummaryPart[][] = [];
  // Operations (and the count of the rest) read as one list: "replace /cart/0, add /items/-, +2 more".
  const ops = summary.lead.filter((p) => p.kind === 'op' || (p.kind === 'count' && p.unit === 'moreOps'));
  if (ops.length) groups.push(ops);
  for (const part of [...summary.lead, ...summary.meta]) if (!ops.includes(part)) groups.push([part]);
  // How many operations there are ("+2 more · 4 ops") is kept whole: the paths before it are cut instead.
  const parts = (counts: boolean) =>
    groups.map((group, i) =>
      group.map((part, j) =>
        (part.kind === 'count' && (part.unit === 'moreOps' || part.unit === 'ops')) === counts ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one summary never reorder.
          <React.Fragment key={`${i}.${j}`}>
            {/* The dot is hidden from assistive technology, not the spaces around it: read out, the parts stay words apart. */}
            {i > 0 && j === 0 ? (
              <span className="agk-devtools__sep">
                {' '}
                <span aria-hidden="true">·</span>{' '}
              </span>
            ) : null}
            {j > 0 ? ', ' : null}
            <Part part={part} />
          </React.Fragment>
        ) : null,
      ),
    );
  return (
    <span className={className}>
      <span className="agk-devtools__lead">{parts(false)}</span>
      <span className="agk-devtools__rest">{parts(true)}</span>
    </span>
  );
}
