import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.mts';

// Tests that kill Temporal's own services; each file runs a four-process cluster of its own.
export default defineConfig({ ...base, test: { ...base.test, include: ['test/cluster/**/*.test.ts'], exclude: configDefaults.exclude } });
