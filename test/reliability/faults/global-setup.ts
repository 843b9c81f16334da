/**
 * `npm run test:faults` global setup: a private throw-away PostgreSQL cluster (private-cluster.ts),
 * then the ordinary e2e setup on it (a fresh, migrated database). DATABASE_URL from the caller is
 * ignored on purpose: these tests stop and start their server, so it must be one they created.
 */
import globalSetup from '../../helpers/global-setup';
import { ENV, PrivateCluster } from './private-cluster';

export default async function faultsGlobalSetup(): Promise<void> {
  const cluster = await PrivateCluster.create();
  (globalThis as { __FAIRDICE_FAULTS_CLUSTER__?: PrivateCluster }).__FAIRDICE_FAULTS_CLUSTER__ = cluster;
  process.env[ENV.root] = cluster.root;
  process.env[ENV.port] = String(cluster.port);
  process.env.DATABASE_URL = cluster.url;
  process.stdout.write(`\n[faults] private PostgreSQL cluster in ${cluster.root} on 127.0.0.1:${cluster.port}\n`);
  try {
    await globalSetup();
  } catch (err) {
    cluster.destroy();
    throw err;
  }
}
