'use client';

import { useAgentStore, useInterrupts } from '@aguikit/react';
import * as React from 'react';
import { Countdown } from './Countdown.js';
import { InterruptDetails, InterruptHeader } from './InterruptDetails.js';
import { InterruptForm } from './InterruptFormLoader.js';
import { InterruptGroup, type InterruptGroupProps, InterruptSend } from './InterruptGroup.js';
import { InterruptActions, InterruptErrors, InterruptRoot } from './InterruptRoot.js';
import { storeKey } from './useStoreSwitch.js';

/**
 * The parts of the interrupt dialog, to compose one of your own:
 * `Group` (the labelled non-modal region that keeps the answers and sends
 * them in one resume; `data-state` = `open | submitting`), `Root` (one
 * interrupt: `data-state` = `open | answered | expired | submitting`,
 * `data-reason` = `tool_call | input_required | confirmation | custom`,
 * `data-shape`, `data-answer`), `Header`,
 * `Countdown`, `Context` (message, tool and arguments, metadata as labelled fields), `Form`
 * (generated from the responseSchema; its code loads when the first such
 * interrupt opens, see `preloadInterruptForm`), `Errors` (the store's
 * refusals for this interrupt), `Actions` and `Send`. Every part forwards its ref to its DOM root
 * (`Form`: the `<div>` around the form, once its code is there) and passes
 * `className`, `style` and other DOM props through.
 *
 * @example
 * const interrupts = useInterrupts();
 * <Interrupt.Group>
 *   {interrupts.map((it) => (
 *     <Interrupt.Root key={it.id} interrupt={it}>
 *       <Interrupt.Header /><Interrupt.Context /><Interrupt.Form /><Interrupt.Errors /><Interrupt.Actions />
 *     </Interrupt.Root>
 *   ))}
 *   <Interrupt.Send />
 * </Interrupt.Group>
 */
export const Interrupt = {
  Group: InterruptGroup,
  Root: InterruptRoot,
  Header: InterruptHeader,
  Countdown,
  Context: InterruptDetails,
  Form: InterruptForm,
  Errors: InterruptErrors,
  Actions: InterruptActions,
  Send: InterruptSend,
};

/**
 * Props of `InterruptDialog`: the clock, where focus goes, and the heading.
 *
 * @example
 * <InterruptDialog initialFocus="none" />
 */
export type InterruptDialogProps = Omit<InterruptGroupProps, 'children'>;

/**
 * Every open interrupt of the thread as a form to answer, in a labelled
 * non-modal `role="dialog"` region; renders nothing visible while none is
 * open. Each interrupt shows its reason, message, the tool call and
 * arguments it would run and its metadata (as labelled fields) before
 * anything is done, a live countdown to `expiresAt` (then only "Close
 * without answering"), and a form generated from its `responseSchema`,
 * validated before it is sent. The agent's words (the question, the form's
 * titles and descriptions) read in their own direction (`dir="auto"`), and a
 * schema `default` its own field refuses is left out (the field starts
 * empty). The form's code (rjsf, ajv) is not in the
 * page's first load: the first interrupt with a schema fetches it, showing
 * "Loading the form…" in its place meanwhile (`preloadInterruptForm()`
 * fetches it ahead). Approve and Reject send a resolved answer
 * (`{ approved: false, ... }` for a reject); a question without a form is
 * answered Yes (resolved) or No (cancelled); Close without answering sends
 * `cancelled`.
 *
 * With one open interrupt, its answer is sent at once. With several, each
 * answer is saved (and can be changed) until all have one; then "Send
 * answers" sends them together in a single resume, as the protocol requires.
 * Nothing is sent twice: buttons are disabled while a request is in flight
 * and a second click before that is ignored. The store's refusals show next
 * to the interrupt they concern.
 *
 * Keyboard and focus:
 * - When an interrupt opens, focus moves to its first enabled field (once
 *   the form's code is there), or to the interrupt when it has none, or
 *   when the field and the interrupt's question cannot both be in view (the
 *   question is never scrolled away; the field is the next Tab stop); not
 *   while the user is typing in a text field elsewhere (the composer, say):
 *   then a polite announcement says the agent needs a decision, and
 *   Alt+Shift+D goes to it (from anywhere on the page, at any time).
 * - Escape in the region takes focus back to where it was before (or to the
 *   composer) without answering.
 * - Once an answer is on its way, focus goes to the composer's text box
 *   (`form.agk-composer .agk-composer__input`), else to the decision's line
 *   in the transcript (`[data-agk-decision]`), else to the chat region
 *   (`section.agk-chat`), else (a page without a chat) back to where it was
 *   before the interrupt took it; the outcome is announced politely. A
 *   refused answer brings focus back to the interrupt; one the agent never
 *   took (offline, an HTTP error) opens its forms again with the answers
 *   that were sent, is not announced as sent, and focus the page lost, or
 *   still where the answer put it, goes back to the interrupt; focus the
 *   user moved elsewhere stays there. Either way the failure is said once:
 *   by a `RunStatus` shown since the answer was sent, in the dialog's chat
 *   (a dialog outside a chat: one in no chat), once it shows the failure;
 *   else by a polite announcement that the answer did not reach the agent.
 * - A page with a fixed or sticky header says how tall it is in its own
 *   `scroll-padding-top` (`html { scroll-padding-top: 64px }`): focus on
 *   opening, Tab and find in page then keep the question and the field below
 *   it (the actions are held at the bottom edge, clear of it).
 * - Each interrupt is named by its heading; two open under the same heading
 *   (two approvals) are named by what each is about too (the tool, the
 *   form's title).
 * - At expiry, focus on a control that goes moves to the action left: on
 *   the expired interrupt's answer, or its Change answer, or Send answers
 *   (disabled once its kept answer is dropped), to Close without answering.
 * - A failed submit focuses the first invalid field and announces a summary.
 * - The time left is announced at 2 minutes, 1 minute and 30 seconds, and at
 *   expiry; the deadline is the agent's (the protocol has no message to ask
 *   for more), which the announcements say.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <MessageList />
 *   <InterruptDialog />
 * </AgentProvider>
 */
export const InterruptDialog = React.forwardRef<HTMLElement, InterruptDialogProps>(function InterruptDialog(props, ref) {
  useAgentStore('<InterruptDialog>');
  const interrupts = useInterrupts();
  // Each thread's cards are its own: a form typed into, or a countdown's milestones, under an id another thread uses too.
  const thread = storeKey(useAgentStore());
  return (
    <InterruptGroup {...props} ref={ref}>
      {interrupts.map((interrupt) => (
        <InterruptRoot key={`${thread}:${interrupt.id}`} interrupt={interrupt}>
          <InterruptHeader />
          <InterruptDetails />
          <InterruptForm />
          <InterruptErrors />
          <InterruptActions />
        </InterruptRoot>
      ))}
      <InterruptSend />
    </InterruptGroup>
  );
});
