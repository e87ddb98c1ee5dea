import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions } from 'vite';

const config: StorybookConfig = {
  stories: ['../packages/*/src/**/*.stories.tsx'],
  addons: ['@storybook/addon-vitest', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  typescript: { reactDocgen: 'react-docgen' },
  core: { disableTelemetry: true },
  // Workspace packages resolve to their sources, so stories never need a build first.
  viteFinal: (vite) => ({
    ...vite,
    resolve: { ...vite.resolve, conditions: ['@aguikit/source', ...defaultClientConditions] },
  }),
};

export default config;
