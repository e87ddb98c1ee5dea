'use client';

import * as React from 'react';
import { useInterruptRoot } from './interruptContext.js';
import { focusWithQuestion } from './interruptFocus.js';
import { formLines } from './interruptForm.js';
import { interruptFormChunk } from './lazyChunks.js';
import { useLocale } from './locale.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useLazyModule } from './useLazyModule.js';
import { useMergedRef } from './useMergedRef.js';

const FIELD = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/** Props of `Interrupt.Form`: DOM props of the `<div>` around the form (once its code is there). */
export type InterruptFormProps = React.HTMLAttributes<HTMLDivElement>;

/**
 * The `Interrupt.Form` part: the form generated from the interrupt's
 * `responseSchema` (see `ResponseForm`). The form code (rjsf and its ajv
 * validator) is loaded when the first interrupt with a schema opens, not
 * with the page: until it is there, a placeholder of about the form's height
 * says "Loading the form…" (`role="status"`), and the buttons that need the
 * form (Approve, Reject, Submit) wait for it; Close without answering never
 * does. Nothing is
 * loaded for an interrupt without a responseSchema.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Form /><Interrupt.Actions /></Interrupt.Root>
 */
export const InterruptForm = React.forwardRef<HTMLDivElement, InterruptFormProps>(function InterruptForm(props, ref) {
  const root = useInterruptRoot('Form');
  const schema = root.interrupt.responseSchema;
  const { state, retry } = useLazyModule(interruptFormChunk, schema !== undefined);
  // Set as the placeholder goes with focus in it (Try again put it there): the form's first field takes it over.
  const held = React.useRef(false);
  const form = React.useRef<HTMLDivElement | null>(null);
  const setRef = useMergedRef(form, ref);
  const ready = state.status === 'ready';
  useBrowserLayoutEffect(() => {
    if (!ready || !held.current) return;
    held.current = false;
    const box = form.current;
    const card = box?.closest<HTMLElement>('.agk-interrupt');
    const active = box?.ownerDocument.activeElement;
    // Dropped with the placeholder, in this same commit: nothing else has it.
    if (!box || !card || (active && active !== box.ownerDocument.body)) return;
    focusWithQuestion(card, box.querySelector<HTMLElement>(FIELD) ?? card);
  }, [ready]);
  if (schema === undefined) return null;
  if (ready) return <state.module.ResponseForm {...props} ref={setRef} />;
  return <FormPlaceholder lines={formLines(schema, root.shape)} failed={state.status === 'failed'} onRetry={retry} held={held} />;
});

/**
 * What stands in the form's place while its code loads: a status about the
 * form's height, so nothing below it jumps when it arrives; or, when the code
 * could not be fetched, an alert with Try again (Cancel still works).
 * Internal; exported for its story.
 */
export function FormPlaceholder({
  lines,
  failed = false,
  onRetry,
  held,
}: {
  lines: number;
  failed?: boolean;
  onRetry?: () => void;
  /** Set when the placeholder goes with focus in it: the form that replaces it takes focus. */
  held?: React.MutableRefObject<boolean>;
}) {
  const t = useLocale().messages.interrupt;
  // Set in the browser, not as a `style` attribute: a Content Security Policy with `style-src 'self'` refuses those in HTML.
  const ref = React.useRef<HTMLDivElement>(null);
  // Set as Try again is pressed: the button goes while the code loads, so focus stays here, not on the page.
  const retried = React.useRef(false);
  useBrowserLayoutEffect(() => {
    ref.current?.style.setProperty('--agk-form-lines', String(lines));
  }, [lines, failed]);
  useBrowserLayoutEffect(() => {
    const box = ref.current;
    const active = box?.ownerDocument.activeElement;
    // Only while focus is still here (or was dropped with the button): a reader who moved on keeps their place.
    if (!retried.current || !box || (active && active !== box.ownerDocument.body && !box.contains(active))) return;
    // Loading: the placeholder itself; failed again: the new Try again.
    retried.current = !failed;
    const button = box.querySelector('button');
    if (button) return button.focus();
    // Focusable while it holds focus only: the alert it turns into is not a stop of its own.
    box.tabIndex = -1;
    box.addEventListener('blur', () => box.removeAttribute('tabindex'), { once: true });
    box.focus();
  }, [failed]);
  // Run as the placeholder goes, before its element does: whether focus was still in it.
  useBrowserLayoutEffect(() => {
    const box = ref.current;
    return () => {
      if (held && box?.contains(box.ownerDocument.activeElement)) held.current = true;
    };
  }, [held]);
  if (failed) {
    return (
      <div className="agk-interrupt__form-placeholder" data-state="failed" role="alert" ref={ref}>
        <p>{t.formFailed}</p>
        {onRetry ? (
          <button
            type="button"
            className="agk-button"
            onClick={() => {
              retried.current = true;
              onRetry();
            }}
          >
            {t.tryAgain}
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <div className="agk-interrupt__form-placeholder" data-state="loading" role="status" ref={ref}>
      {t.loadingForm}
    </div>
  );
}
