import type { Scenario } from '../scenario.js';
import { Script, tokens } from '../script.js';

/** Three tool calls whose arguments and results interleave. */
export const parallelTools: Scenario = {
  id: 'parallel-tools',
  title: 'Parallel tool calls',
  description: 'Three calls stream their arguments interleaved and settle out of order.',
  prompt: 'Compare the weather in Lisbon, Oslo and Tokyo.',
  run(input) {
    const s = new Script(input).start();
    s.text('intro', 'Checking three cities at once.');
    const cities = ['Lisbon', 'Oslo', 'Tokyo'];
    const parent = s.id('intro');
    for (let i = 0; i < cities.length; i++) {
      s.emit({ type: 'TOOL_CALL_START', toolCallId: s.id(`w${i}`), toolCallName: 'get_weather', parentMessageId: parent }, 60);
    }
    const args = cities.map((city) => JSON.stringify({ city, units: 'metric' }));
    for (let at = 0; at < Math.max(...args.map((a) => a.length)); at += 6) {
      args.forEach((a, i) => {
        const delta = a.slice(at, at + 6);
        if (delta) s.emit({ type: 'TOOL_CALL_ARGS', toolCallId: s.id(`w${i}`), delta }, 25);
      });
    }
    for (let i = 0; i < cities.length; i++) s.emit({ type: 'TOOL_CALL_END', toolCallId: s.id(`w${i}`) });
    const temps = [19, 2, 11];
    for (const i of [2, 0, 1]) s.result(`w${i}`, { city: cities[i], tempC: temps[i], sky: ['sunny', 'snow', 'cloudy'][i] }, 250);
    s.text('done', 'Lisbon is warmest at 19°C, Tokyo is 11°C and cloudy, Oslo has snow at 2°C.');
    return s.finish().events();
  },
};

/** Two subagents run concurrently; the writer is nested under the researcher. */
export const subagents: Scenario = {
  id: 'subagents',
  title: 'Subagents',
  description: 'A researcher and a nested writer stream at the same time; each event is attributed to its subagent.',
  prompt: 'Write a short brief on heat pumps.',
  run(input) {
    const s = new Script(input).start();
    const researcher = s.id('researcher');
    const writer = s.id('writer');
    s.text('intro', 'Delegating: a researcher gathers facts while a writer drafts.');
    s.emit({ type: 'SUBAGENT_STARTED', subagentRunId: researcher, name: 'researcher', description: 'Finds sources' });
    s.emit({
      type: 'SUBAGENT_STARTED',
      subagentRunId: writer,
      name: 'writer',
      description: 'Drafts the brief',
      parentSubagentRunId: researcher,
    });
    const notes = tokens('Heat pumps move heat instead of making it, so they deliver 3 to 4 units of heat per unit of electricity.');
    const draft = tokens('Heat pumps are the most efficient way to heat most homes today.');
    const rId = s.id('notes');
    const wId = s.id('draft');
    s.emit({ type: 'TEXT_MESSAGE_START', messageId: rId, role: 'assistant', subagentRunId: researcher });
    s.emit({ type: 'TEXT_MESSAGE_START', messageId: wId, role: 'assistant', subagentRunId: writer });
    for (let i = 0; i < Math.max(notes.length, draft.length); i++) {
      const n = notes[i];
      const d = draft[i];
      if (n) s.emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: rId, delta: n, subagentRunId: researcher }, 35);
      if (d) s.emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: wId, delta: d, subagentRunId: writer }, 35);
    }
    s.emit({ type: 'TEXT_MESSAGE_END', messageId: wId, subagentRunId: writer });
    s.emit({ type: 'SUBAGENT_FINISHED', subagentRunId: writer, result: { words: draft.length } });
    s.emit({ type: 'TEXT_MESSAGE_END', messageId: rId, subagentRunId: researcher });
    s.emit({ type: 'SUBAGENT_FINISHED', subagentRunId: researcher });
    s.text('done', 'Here is the brief, with the research notes above.');
    return s.finish().events();
  },
};

/** Visible reasoning before the answer. */
export const reasoning: Scenario = {
  id: 'reasoning',
  title: 'Reasoning',
  description: 'A reasoning span with one message, then the answer.',
  prompt: 'Is 2027 a prime number?',
  run(input) {
    const s = new Script(input).start();
    s.reasoning(
      'think',
      '2027 is odd and its digits sum to 11, so not divisible by 3. Checking primes up to 45: 7 gives 289.57, 11 gives 184.27, 13 gives 155.9 … none divide it.',
    );
    s.text('answer', 'Yes: 2027 is prime.');
    return s.finish().events();
  },
};

/** An activity (a plan) created by a snapshot and advanced by patches. */
export const activity: Scenario = {
  id: 'activity',
  title: 'Activity: a plan',
  description: 'ACTIVITY_SNAPSHOT creates a plan; ACTIVITY_DELTA checks its steps off.',
  prompt: 'Plan my move to a new office.',
  run(input) {
    const s = new Script(input).start();
    const messageId = s.id('plan');
    const steps = ['Book movers', 'Transfer internet', 'Update address', 'Order keys'];
    s.emit({
      type: 'ACTIVITY_SNAPSHOT',
      messageId,
      activityType: 'PLAN',
      content: { title: 'Office move', steps: steps.map((title) => ({ title, done: false })) },
    });
    for (let i = 0; i < steps.length; i++) {
      s.emit(
        { type: 'ACTIVITY_DELTA', messageId, activityType: 'PLAN', patch: [{ op: 'replace', path: `/steps/${i}/done`, value: true }] },
        400,
      );
    }
    s.text('done', 'All four steps are done.');
    return s.finish().events();
  },
};
