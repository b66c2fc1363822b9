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
