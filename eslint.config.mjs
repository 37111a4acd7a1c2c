import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', 'src/generated/', '.tools/', '.data/', 'clients/typescript/schema.d.ts', 'clients/typescript/index.{js,d.ts}'] },
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
    // src/domain is held to the same rule, so every pure rule there stays importable by workflows.
    // Type-only imports from the generated Prisma client are erased at compile time, so they pass.
    files: ['src/workflows/**/*.ts', 'src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'http', 'https', 'crypto', 'child_process', 'net'], message: 'Workflows must be deterministic.' },
          { group: ['**/db/**', '**/proxmox/**', '@prisma/*', 'pg', 'express'], message: 'Workflows import activities as types only.' },
          { group: ['**/generated/**'], message: 'Only types of the generated Prisma client are erased from the workflow bundle.', allowTypeImports: true },
        ],
      }],
    },
  },
);
