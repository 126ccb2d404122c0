import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every /v1 response a test receives is checked against the vendored Glacier schemas.
    env: { L1SIM_VALIDATE_RESPONSES: '1' },
  },
})
