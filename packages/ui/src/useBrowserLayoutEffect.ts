'use client';

import * as React from 'react';

/**
 * A layout effect in the browser; on a server, where there is no layout, a
 * plain effect, which never runs there. React 18 warns of every
 * `useLayoutEffect` a server render meets (React 19 no longer does): a chat
 * rendered by Next.js or any SSR framework must not fill its log with them.
 */
export const useBrowserLayoutEffect: typeof React.useLayoutEffect = typeof window === 'undefined' ? React.useEffect : React.useLayoutEffect;
