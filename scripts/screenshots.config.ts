import { defineConfig } from '@playwright/test';
import journeys from '../apps/web/e2e/playwright.config';

/**
 * The screenshots (scripts/screenshots.ts) with the journeys' browser and timeouts, but as their own run: one
 * project, no JSON report, so they never count among the tests. Started by `npm run screenshots`.
 */
export default defineConfig({
  ...journeys,
  testDir: '.',
  testMatch: 'screenshots.ts',
  outputDir: '../test-results/screenshots',
  reporter: [['list']],
  projects: [{ name: 'screenshots', use: journeys.projects?.[0]?.use }],
});
