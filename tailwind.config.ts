import type { Config } from 'tailwindcss';

/** Tailwind settings loaded by styles/globals.css through `@config`. Breakpoints are docs/rules.md#limits's (px). */
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  theme: {
    screens: { xs: '320px', sm: '640px', md: '768px', lg: '1024px', xl: '1280px', '2xl': '1536px' },
    extend: {
      colors: { brand: { DEFAULT: '#1d4ed8', dark: '#1e3a8a', light: '#dbeafe' } },
    },
  },
};

export default config;
