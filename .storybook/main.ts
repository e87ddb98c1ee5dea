import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions } from 'vite';

const config: StorybookConfig = {
  stories: ['../packages/*/src/**/*.stories.tsx'],
  addons: ['@storybook/addon-vitest', '@storybook/addon-a11y', '@storybook/addon-docs'],
  framework: { name: '@storybook/react-vite', options: {} },
  typescript: { reactDocgen: 'react-docgen' },
  core: { disableTelemetry: true },
  // Workspace packages resolve to their sources, so stories never need a build first.
  viteFinal: (vite) => ({
    ...vite,
    resolve: { ...vite.resolve, conditions: ['@aguikit/source', ...defaultClientConditions] },
    build: {
      ...vite.build,
      rolldownOptions: {
        ...vite.build?.rolldownOptions,
        // The components' 'use client' marks them for React Server Components apps; Storybook is a browser app, where
        // the directive means nothing, so its "may not be preserved" warning (one per component) is noise here.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  }),
};

export default config;
