import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'warn',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // One link component site-wide (tracked parameters, hash scrolling, disabled links).
    files: ['app/**/*.tsx', 'components/**/*.tsx'],
    ignores: ['components/ui/link.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.name='a']",
          message: 'Use <Link> from @/components/ui/link (docs/rules.md#routes link rules).',
        },
      ],
    },
  },
  {
    // The house's sizes (docs/decisions/0020-domain-folders.md): a function of the app reads on one screen, a file in
    // one sitting. Tests, benches and end-to-end specs are scripts of steps and are not held to them.
    files: [
      'app/**/*.{ts,tsx}',
      'components/**/*.{ts,tsx}',
      'lib/**/*.ts',
      'server/**/*.ts',
      'i18n/**/*.ts',
      'scripts/**/*.mjs',
    ],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      '.data/**',
      'drizzle/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'bench/.tmp/**',
    ],
  },
];

export default config;
