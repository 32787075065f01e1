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
          // Components and helpers most pages share travel as one file rather than a dozen small
          // ones: on a phone each extra request costs a round trip before hydration. Shared by
          // four or more, not two: at two, whatever two account or admin pages share (and what
          // it imports, zod included) rode on every catalogue page, 170–177 kB of gzip
          // JavaScript instead of 137–144 kB, in as many files.
          groups: [{ name: 'shop', test: /[\\/]app[\\/](components|lib)[\\/]/, minShareCount: 4 }],
        },
      },
    },
  },
});
