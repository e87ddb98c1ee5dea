/**
 * Lets the page go on, then resumes: a message to itself, queued behind the
 * tasks waiting (input, an abort, a framework's render of the progress;
 * `scheduler.yield` would go ahead of them), and free of the 4 ms a nested
 * timer waits.
 */
export const yieldToPage = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') return void setTimeout(resolve, 0);
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(undefined);
  });
