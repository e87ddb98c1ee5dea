'use client';

import type { ResumeRefusal } from '@aguikit/core';
import type { InterruptMessages } from './interruptForm.js';
import { useLocale } from './locale.js';

/**
 * A refusal of a resume in the locale's words, by its code; the store's own
 * message (English, naming ids and schema paths) only for a code the locale
 * does not know.
 */
function refusalText(t: InterruptMessages, refusal: { code: string; message: string }): string {
  return Object.hasOwn(t.refusals, refusal.code) ? t.refusals[refusal.code as keyof InterruptMessages['refusals']] : refusal.message;
}

/** Refusals whose store message holds what a person can act on (which field, what the schema wanted): shown after the sentence. */
const DETAILED_REFUSALS: ReadonlySet<string> = new Set(['PAYLOAD_INVALID', 'SCHEMA_INVALID']);

/** The list items of a refused resume: each refusal's sentence, with the store's detail where it helps. */
export function RefusalItems({ errors }: { errors: readonly ResumeRefusal[] }) {
  const t = useLocale().messages.interrupt;
  return errors.map((e) => (
    <li key={`${e.code}:${e.message}`} data-code={e.code}>
      {refusalText(t, e)}
      {DETAILED_REFUSALS.has(e.code) ? (
        <span className="agk-interrupt__error-detail" lang="en">
          {e.message}
        </span>
      ) : null}
    </li>
  ));
}
