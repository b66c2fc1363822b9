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
