/**
 * e2e setup file (jest.config.js `setupFiles`, before each test file): points this worker's
 * DATABASE_URL at its own database of the run. global-setup.ts creates one per Jest worker and
 * lists them in FAIRDICE_TEST_DATABASE_URLS; JEST_WORKER_ID is 1..maxWorkers (1 in band).
 * Tests keep reading process.env.DATABASE_URL (testDatabaseUrl(), createTestApp).
 */
const urls: string[] = JSON.parse(process.env.FAIRDICE_TEST_DATABASE_URLS ?? '[]');
if (urls.length > 0) {
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? '1') || 1);
  process.env.DATABASE_URL = urls[(worker - 1) % urls.length];
}
