'use client';

import * as React from 'react';
import { useInterruptRoot } from './interruptContext.js';
import { formLines } from './interruptForm.js';
import { interruptFormChunk } from './lazyChunks.js';
import { useLocale } from './locale.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useLazyModule } from './useLazyModule.js';

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
  if (schema === undefined) return null;
  if (state.status === 'ready') return <state.module.ResponseForm {...props} ref={ref} />;
  return <FormPlaceholder lines={formLines(schema, root.shape)} failed={state.status === 'failed'} onRetry={retry} />;
});

/**
 * What stands in the form's place while its code loads: a status about the
 * form's height, so nothing below it jumps when it arrives; or, when the code
 * could not be fetched, an alert with Try again (Cancel still works).
 * Internal; exported for its story.
 */
export function FormPlaceholder({ lines, failed = false, onRetry }: { lines: number; failed?: boolean; onRetry?: () => void }) {
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
    box.tabIndex = -1;
    (box.querySelector('button') ?? box).focus();
  }, [failed]);
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
