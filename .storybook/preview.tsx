import type { Decorator, Preview } from '@storybook/react-vite';
import '../packages/ui/src/styles.css';

const withTheme: Decorator = (Story, context) => (
  <div className="agk-theme" data-theme={context.globals.theme === 'dark' ? 'dark' : 'light'} style={{ padding: 16, minHeight: '100%' }}>
    <Story />
  </div>
);

const preview: Preview = {
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: 'Color theme',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    // Accessibility violations fail the story tests.
    a11y: { test: 'error' },
    layout: 'fullscreen',
  },
};

export default preview;
