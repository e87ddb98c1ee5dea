import type { NextConfig } from 'next';

const config: NextConfig = {
  // As create-next-app sets it up: prerendering checks that nothing renders an id or a time it draws itself.
  cacheComponents: true,
  // With it, as Next.js asks of a new app: prefetches take the prerendered part of a page.
  partialPrefetching: true,
  poweredByHeader: false,
};

export default config;
