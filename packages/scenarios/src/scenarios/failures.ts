import type { Scenario } from '../scenario.js';
import { Script } from '../script.js';

/** The agent fails mid-run with RUN_ERROR. */
export const runError: Scenario = {
  id: 'run-error',
  title: 'Run error',
  description: 'The agent starts answering, then reports RUN_ERROR with a code.',
  prompt: 'Book me a flight to Lima.',
  run(input) {
    const s = new Script(input).start();
    s.text('start', 'Searching flights to Lima…').tool('search', 'search_flights', { to: 'LIM' });
    return s.fail('The flight search provider did not answer in time.', 'UPSTREAM_TIMEOUT', 500).events();
  },
};

/** The stream stops mid-message, with no terminal event: the run must not count as a success. */
export const cutOff: Scenario = {
  id: 'cut-off',
  title: 'Stream cut off',
  description: 'The connection ends in the middle of a message, without RUN_FINISHED or RUN_ERROR.',
  prompt: 'Tell me about your return policy.',
  run(input) {
    return new Script(input)
      .start()
      .text('answer', 'Our return policy lets you send back any item within thirty days, as long as it', { cutAfter: 14 })
      .events();
  },
};
