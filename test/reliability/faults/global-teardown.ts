/** `npm run test:faults` global teardown: the e2e teardown, then the private cluster is stopped and deleted. */
import globalTeardown from '../../helpers/global-teardown';
import type { PrivateCluster } from './private-cluster';

export default async function faultsGlobalTeardown(): Promise<void> {
  const g = globalThis as { __FAIRDICE_FAULTS_CLUSTER__?: PrivateCluster };
  try {
    await globalTeardown().catch(() => undefined);
  } finally {
    g.__FAIRDICE_FAULTS_CLUSTER__?.destroy();
    g.__FAIRDICE_FAULTS_CLUSTER__ = undefined;
  }
}
