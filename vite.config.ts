import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Components and helpers that two or more pages share travel as one file rather than
          // a dozen small ones: on a phone each extra request costs a round trip before hydration.
          groups: [{ name: 'shop', test: /[\\/]app[\\/](components|lib)[\\/]/, minShareCount: 2 }],
        },
      },
    },
  },
});
