/**
 * An outcome of many interrupts opens a form for each at once. Each field
 * names what describes it (its description, its errors) by looking its
 * controls up within its own form, so one more form costs its own fields,
 * not a pass over every other form: 300 took 13 s to open in jsdom when each
 * field searched the whole document.
 */
import { AgentProvider } from '@aguikit/react';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';

const COUNT = 300;

describe(`an outcome of ${COUNT} interrupts`, () => {
  it('opens a form for each, every field described by its own description, in a few seconds at most', async () => {
    const interrupts = Array.from({ length: COUNT }, (_, i) => ({
      id: `6b1e${String(i).padStart(4, '0')}-3c2d-4e5f-8a9b-0c1d2e3f4a5b`,
      reason: 'input_required',
      message: `第 ${i + 1} 个问题：送货地址？`,
      responseSchema: {
        type: 'object',
        properties: { address: { type: 'string', title: 'Address', description: `Where parcel ${i + 1} goes` } },
        required: ['address'],
      },
    }));
    // One form opened first, the same way: what is timed is the 300 forms, not the first form's loading and compiling
    // of the form code (a chunk of its own) and of React's.
    const one = await playedStore([
      { say: '寄出包裹。', events: runOf([], { outcome: { type: 'interrupt', interrupts: interrupts.slice(0, 1) } }) },
    ]);
    const first = render(
      <AgentProvider store={one}>
        <AgentChat />
      </AgentProvider>,
    );
    await waitFor(() => expect(first.container.querySelectorAll('form.agk-interrupt__form input[type="text"]')).toHaveLength(1), {
      timeout: 30_000,
    });
    first.unmount();
    const store = await playedStore([{ say: '寄出全部包裹。', events: runOf([], { outcome: { type: 'interrupt', interrupts } }) }]);
    /** The 300 forms opened, timed. */
    const open = async () => {
      const started = performance.now();
      const shown = render(
        <AgentProvider store={store}>
          <AgentChat />
        </AgentProvider>,
      );
      await waitFor(() => expect(shown.container.querySelectorAll('form.agk-interrupt__form input[type="text"]')).toHaveLength(COUNT), {
        timeout: 30_000,
      });
      return { shown, took: performance.now() - started };
    };
    // Opened again when over the bound, up to three times, the quickest kept: a busy machine slows one opening now and
    // then, a pass over every other form for each slows every one.
    let { shown, took } = await open();
    for (let tries = 1; tries < 3 && took >= 5_000; tries++) {
      shown.unmount();
      const again = await open();
      shown = again.shown;
      took = Math.min(took, again.took);
    }
    const controls = [...shown.container.querySelectorAll<HTMLElement>('form.agk-interrupt__form input[type="text"]')];
    for (const [i, control] of controls.entries()) {
      const described = (control.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
      expect(described).toContain(`Where parcel ${i + 1} goes`);
    }
    // 3-4 s here (React in development mode, jsdom); 13 s when each field searched the document.
    expect(took).toBeLessThan(5_000);
  }, 150_000);
});

describe('many interrupts open at once, the page scrolled', () => {
  it('reads the style of each box that clips the cards once, not once for every card', async () => {
    const count = 60;
    const interrupts = Array.from({ length: count }, (_, i) => ({
      id: `int-${i + 1}`,
      reason: 'confirmation',
      message: `Send parcel ${i + 1}?`,
    }));
    const store = await playedStore([{ say: 'Send them all.', events: runOf([], { outcome: { type: 'interrupt', interrupts } }) }]);
    const { container } = render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    await waitFor(() => expect(container.querySelectorAll('.agk-interrupt__actions')).toHaveLength(count));
    const styles = vi.spyOn(window, 'getComputedStyle');
    try {
      document.dispatchEvent(new Event('scroll'));
      // Each card is measured (its heading, its actions) on a scroll: the boxes around them are read once.
      expect(styles.mock.calls.length).toBeGreaterThan(0);
      expect(styles.mock.calls.length).toBeLessThan(count / 2);
    } finally {
      styles.mockRestore();
    }
  });
});
