'use client';

import { useInterrupts } from '@aguikit/react';
import { Countdown } from './Countdown.js';
import { InterruptDetails, InterruptHeader } from './InterruptDetails.js';
import { InterruptForm } from './InterruptFormLoader.js';
import { InterruptGroup, type InterruptGroupProps, InterruptSend } from './InterruptGroup.js';
import { InterruptActions, InterruptErrors, InterruptRoot } from './InterruptRoot.js';

/**
 * The parts of the interrupt dialog, to compose one of your own:
 * `Group` (the labelled non-modal region that keeps the answers and sends
 * them in one resume), `Root` (one interrupt: `data-state` =
 * `open | expired | submitting`, `data-reason` = `tool_call | input_required
 * | confirmation | custom`, `data-shape`, `data-answer`), `Header`,
 * `Countdown`, `Context` (message, tool and arguments, metadata), `Form`
 * (generated from the responseSchema; its code loads when the first such
 * interrupt opens, see `preloadInterruptForm`), `Errors` (the store's
 * refusals for this interrupt), `Actions` and `Send`.
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
 * non-modal `role="dialog"` region that takes focus to the first field when an
 * interrupt appears; renders nothing while none is open. Each interrupt shows
 * its reason, message, the tool call and arguments it would run and its
 * metadata before anything is done, a live countdown to `expiresAt` (then
 * Cancel only), and a form generated from its `responseSchema`, validated
 * before it is sent. The form's code (rjsf, ajv) is not in the page's first
 * load: the first interrupt with a schema fetches it, showing "Loading the
 * form…" in its place meanwhile (`preloadInterruptForm()` fetches it ahead). Approve and Reject send a resolved answer
 * (`{ approved: false, ... }` for a reject); Cancel sends `cancelled`.
 *
 * With one open interrupt, its answer is sent at once. With several, each
 * answer is kept (and can be changed) until all have one; then "Send
 * answers" sends them together in a single resume, as the protocol requires.
 * Nothing is sent twice: buttons are disabled while a request is in flight
 * and a second click before that is ignored. The store's refusals show next
 * to the interrupt they concern.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <MessageList />
 *   <InterruptDialog />
 * </AgentProvider>
 */
export function InterruptDialog(props: InterruptDialogProps) {
  const interrupts = useInterrupts();
  return (
    <InterruptGroup {...props}>
      {interrupts.map((interrupt) => (
        <InterruptRoot key={interrupt.id} interrupt={interrupt}>
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
}
