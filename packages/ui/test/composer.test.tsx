import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Composer, type ComposerProps } from '../src/Composer.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { runOf, type ScriptEvent, STORY_THREAD, say, waitForState } from '../src/storybook/scripted.js';

/**
 * A store whose runs each answer with `turn` but hold their last event (the
 * run's end) until `finish()` is called: a run that is still streaming.
 */
function gatedStore(turn: () => ScriptEvent[]) {
  const gates: Array<() => void> = [];
  const source: AgentSource = {
    async *run(_input, options = {}) {
      options.onConnection?.('open');
      const events = turn();
      for (const event of events.slice(0, -1)) yield event;
      await new Promise<void>((resolve) => {
        gates.push(resolve);
        options.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      if (options.signal?.aborted) return;
      const last = events.at(-1);
      if (last) yield last;
      options.onConnection?.('closed');
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source });
  const finish = async () => {
    await act(async () => {
      for (const open of gates.splice(0)) open();
      await waitForState(store, (s) => s.inFlight === undefined);
    });
  };
  return { store, finish };
}

const renderComposer = (store: AgentStore, props: ComposerProps = {}) =>
  render(
    <AgentProvider store={store}>
      <Composer {...props} />
    </AgentProvider>,
  );

/** What the user sent, in order. */
const sent = (store: AgentStore) => {
  const { thread } = store.getState();
  return thread.messages.ids.map((id) => thread.messages.byId.get(id)).flatMap((m) => (m?.role === 'user' ? [m.content] : []));
};

let reply = 0;
const aReply = () => runOf(say(`r${++reply}`, 'ok'));

describe('Composer: the draft', () => {
  it('clears the sent text as soon as the run starts, and keeps a draft typed while it streams', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'first{Enter}');
    expect(store.getState().inFlight).toBe('run');
    expect(input).toHaveValue('');
    await userEvent.type(input, 'a follow-up');
    await finish();
    expect(store.getState().thread.run.status).toBe('success');
    expect(input).toHaveValue('a follow-up');
    expect(sent(store)[0]).toBe('first');
  });

  it('keeps the text and says why when a send is refused while a run streams', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'first{Enter}');
    await userEvent.type(input, 'second{Enter}');
    expect(input).toHaveValue('second');
    expect(sent(store)).toEqual(['first']);
    expect(input).toHaveAccessibleDescription(/in progress/i);
    await finish();
    expect(input).toHaveValue('second');
  });
});

describe('Composer: in Simplified Chinese', () => {
  it('says why a send was refused in the locale, not in the store’s English', async () => {
    const { store, finish } = gatedStore(aReply);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <Composer />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const input = screen.getByRole('textbox', { name: '消息' });
    await userEvent.type(input, '第一条{Enter}');
    await userEvent.type(input, '第二条{Enter}');
    expect(input).toHaveValue('第二条');
    expect(input).toHaveAccessibleDescription(/^未发送：已有运行正在进行/);
    await finish();
  });
});

describe('Composer: sendOn', () => {
  it('sends with Enter by default, Shift+Enter making a new line', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'one{Shift>}{Enter}{/Shift}two{Enter}');
    expect(sent(store)).toEqual(['one\ntwo']);
    await finish();
  });

  it('never sends a text of nothing a reader can see: spaces, zero-width characters, a byte order mark', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    for (const blank of ['\u200b\u200b', '\u00a0\u3000 ', '\ufeff\u2060\u200d\u200c']) {
      fireEvent.change(input, { target: { value: blank } });
      expect(screen.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-disabled', 'true');
      fireEvent.keyDown(input, { key: 'Enter' });
    }
    expect(sent(store)).toEqual([]);
    // A zero-width joiner inside an emoji is part of what is sent; invisible characters around the text are trimmed with
    // the spaces.
    fireEvent.change(input, { target: { value: '\ufeff \u200b👩\u200d💻 \u2060\u200b\n' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(sent(store)).toEqual(['👩\u200d💻']);
    // The run reaches the agent before it is let finish.
    await act(() => waitForState(store, (s) => s.connection === 'open'));
    await finish();
  });

  it('never sends on the Enter that confirms a Chinese or Japanese composition, as Safari reports it too (keyCode 229)', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, '退款');
    // Chrome and Firefox say isComposing; Safari ends the composition first and sends the Enter with keyCode 229.
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 });
    expect(sent(store)).toEqual([]);
    await userEvent.type(input, '{Enter}');
    expect(sent(store)).toEqual(['退款']);
    await finish();
  });

  it("with sendOn='mod-enter', Enter makes a new line and Ctrl+Enter or Cmd+Enter sends", async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store, { sendOn: 'mod-enter' });
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'one{Enter}two');
    expect(input).toHaveValue('one\ntwo');
    expect(sent(store)).toEqual([]);
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(sent(store)).toEqual(['one\ntwo']);
    expect(input).toHaveValue('');
    await finish();
    await userEvent.type(input, 'three{Meta>}{Enter}{/Meta}');
    expect(sent(store)).toEqual(['one\ntwo', 'three']);
    await finish();
  });
});

describe('Composer: Send and Stop', () => {
  it('keeps Send in place, unavailable with its reason, and shows a separate Stop while a run streams', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    expect(send).toHaveAccessibleDescription(/in progress/i);
    const stop = screen.getByRole('button', { name: 'Stop' });
    expect(stop).toBeEnabled();
    expect(stop).not.toBe(send);
    await finish();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBe(send);
  });

  it('a second Enter on Send right after sending never stops the run it started', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(store.getState().inFlight).toBe('run');
    await userEvent.keyboard('{Enter}');
    expect(store.getState().inFlight).toBe('run');
    expect(store.getState().thread.run.status).not.toBe('cancelled');
    expect(sent(store)).toEqual(['hello']);
    await finish();
    expect(store.getState().thread.run.status).toBe('success');
  });

  it('a double Enter 60 ms apart (in the text box, or on Send) never stops the run it started', async () => {
    for (const on of ['textbox', 'send'] as const) {
      const { store, finish } = gatedStore(aReply);
      const view = renderComposer(store);
      const input = screen.getByRole('textbox', { name: 'Message' });
      await userEvent.type(input, 'Refund order A-1001, please');
      if (on === 'send') {
        await userEvent.tab();
        expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
      }
      await userEvent.keyboard('{Enter}');
      expect(store.getState().inFlight).toBe('run');
      await act(() => new Promise((resolve) => setTimeout(resolve, 60)));
      await userEvent.keyboard('{Enter}');
      expect(store.getState().inFlight, `second Enter on the ${on}`).toBe('run');
      expect(store.getState().thread.run.status).toBe('running');
      expect(sent(store)).toEqual(['Refund order A-1001, please']);
      await finish();
      expect(store.getState().thread.run.status).toBe('success');
      view.unmount();
    }
  });

  it('moves focus to the text box when Stop ends the run', async () => {
    const { store } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'hello{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(store.getState().thread.run.status).toBe('cancelled');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(input).toHaveFocus();
  });

  it('moves focus to the text box when the run ends by itself while Stop is focused', async () => {
    const { store, finish } = gatedStore(aReply);
    renderComposer(store);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'hello{Enter}');
    act(() => screen.getByRole('button', { name: 'Stop' }).focus());
    await finish();
    expect(input).toHaveFocus();
    expect(document.body).not.toHaveFocus();
  });
});
