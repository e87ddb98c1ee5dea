'use client';

import type { CSSProperties } from 'react';
import { useInterruptRoot } from './interruptContext.js';
import { formLines } from './interruptForm.js';
import { interruptFormChunk } from './lazyChunks.js';
import { useLazyModule } from './useLazyModule.js';

/**
 * The `Interrupt.Form` part: the form generated from the interrupt's
 * `responseSchema` (see `ResponseForm`). The form code (rjsf and its ajv
 * validator) is loaded when the first interrupt with a schema opens, not
 * with the page: until it is there, a placeholder of about the form's height
 * says "Loading the form…" (`role="status"`), and the buttons that need the
 * form (Approve, Reject, Submit) wait for it; Cancel never does. Nothing is
 * loaded for an interrupt without a responseSchema.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Form /><Interrupt.Actions /></Interrupt.Root>
 */
export function InterruptForm() {
  const root = useInterruptRoot('Form');
  const schema = root.interrupt.responseSchema;
  const { state, retry } = useLazyModule(interruptFormChunk, schema !== undefined);
  if (schema === undefined) return null;
  if (state.status === 'ready') return <state.module.ResponseForm />;
  return <FormPlaceholder lines={formLines(schema, root.shape)} failed={state.status === 'failed'} onRetry={retry} />;
}

/**
 * What stands in the form's place while its code loads: a status about the
 * form's height, so nothing below it jumps when it arrives; or, when the code
 * could not be fetched, an alert with Try again (Cancel still works).
 * Internal; exported for its story.
 */
export function FormPlaceholder({ lines, failed = false, onRetry }: { lines: number; failed?: boolean; onRetry?: () => void }) {
  const style = { '--agk-form-lines': lines } as CSSProperties;
  if (failed) {
    return (
      <div className="agk-interrupt__form-placeholder" data-state="failed" role="alert" style={style}>
        <p>The form could not be loaded.</p>
        {onRetry ? (
          <button type="button" className="agk-button" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <div className="agk-interrupt__form-placeholder" data-state="loading" role="status" style={style}>
      Loading the form…
    </div>
  );
}
