import { forwardedNumber, type Scenario } from '../scenario.js';
import { Script } from '../script.js';

/** A dashboard whose shared state is updated by many small deltas. */
export const dashboard: Scenario = {
  id: 'dashboard',
  title: 'State-heavy dashboard',
  description: 'A snapshot, then a long run of small deltas (four operations each) updating counters, regions and a series.',
  prompt: 'Show me live sales for today.',
  run(input) {
    const s = new Script(input).start();
    const count = Math.floor(forwardedNumber(input, 'deltas', 200, 0, 10_000));
    s.state({ title: 'Sales today', orders: 0, revenue: 0, series: [], regions: { eu: 0, us: 0, apac: 0 } });
    const regions = ['eu', 'us', 'apac'];
    s.lazy(count, (at) => {
      const i = at + 1;
      const delta = [
        { op: 'replace', path: '/orders', value: i },
        { op: 'replace', path: '/revenue', value: i * 37 },
        { op: 'add', path: '/series/-', value: (i * 37) % 101 },
        { op: 'replace', path: `/regions/${regions[i % 3]}`, value: Math.ceil(i / 3) },
      ];
      return { delayMs: 20, event: { type: 'STATE_DELTA', delta } };
    });
    s.text('done', `That is ${count} orders so far today.`);
    return s.finish().plan();
  },
};

/** A patch that cannot apply: the state is marked desynced until the next snapshot heals it. */
export const desync: Scenario = {
  id: 'desync',
  title: 'Desync and heal',
  description: 'A delta replaces a path that does not exist: the state is desynced (not silently wrong) until a snapshot arrives.',
  prompt: 'Track my package.',
  run(input) {
    const s = new Script(input).start();
    s.state({ package: { status: 'in transit', hops: 2 } });
    s.delta([{ op: 'replace', path: '/package/hops', value: 3 }], 400);
    s.delta([{ op: 'replace', path: '/package/eta/day', value: 'Tuesday' }], 600);
    s.delta([{ op: 'replace', path: '/package/hops', value: 4 }], 600);
    s.text('note', 'Re-syncing the tracking state…');
    s.state({ package: { status: 'out for delivery', hops: 4, eta: { day: 'Tuesday' } } }, 800);
    s.text('done', 'Your package is out for delivery and arrives Tuesday.');
    return s.finish().events();
  },
};
