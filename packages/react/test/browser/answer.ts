/** The text the loopback agent streams in the browser test: accents, a dash and a ZWJ emoji sequence. */
export const ANSWER = 'Your refund of 42 € is on its way — 👩‍👩‍👧 thanks for waiting.';
