import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', '.tools/', '.data/', 'clients/typescript/schema.d.ts', 'clients/typescript/index.{js,d.ts}'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests inspect JSON bodies ad hoc.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: nothing with side effects may be imported.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'http', 'https', 'crypto', 'child_process', 'net'], message: 'Workflows must be deterministic.' },
          { group: ['**/db/**', '**/proxmox/**', '**/generated/**', '@prisma/*', 'pg', 'express'], message: 'Workflows import activities as types only.' },
        ],
      }],
    },
  },
);
