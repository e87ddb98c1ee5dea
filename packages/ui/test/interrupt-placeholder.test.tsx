/**
 * The placeholder that stands in the form's place while its code loads is
 * about the form's height (`--agk-form-lines`). A page whose Content Security
 * Policy has `style-src 'self'` refuses every `style` attribute in its HTML:
 * the server's HTML carries none, and the height is set in the browser
 * (through the element's style object, which the policy allows).
 */
import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormPlaceholder } from '../src/InterruptFormLoader.js';

describe('the form placeholder under a strict Content Security Policy', () => {
  it.each([false, true])('has no style attribute in server-rendered HTML (failed: %s)', (failed) => {
    const html = renderToString(<FormPlaceholder lines={7} failed={failed} onRetry={() => undefined} />);
    expect(html).toContain('agk-interrupt__form-placeholder');
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('is given its height in the browser, and follows it', () => {
    const view = render(<FormPlaceholder lines={7} />);
    const placeholder = view.container.querySelector<HTMLElement>('.agk-interrupt__form-placeholder');
    expect(placeholder?.style.getPropertyValue('--agk-form-lines')).toBe('7');
    view.rerender(<FormPlaceholder lines={9} failed />);
    const failed = view.container.querySelector<HTMLElement>('.agk-interrupt__form-placeholder');
    expect(failed?.getAttribute('data-state')).toBe('failed');
    expect(failed?.style.getPropertyValue('--agk-form-lines')).toBe('9');
  });
});
