/**
 * Has the game ended (finished, or abandoned)? Its server seed may then be revealed, and a
 * tournament game that ends wakes its tournament. The one definition (issue 25): the event store,
 * the verifier, log proofs, audit bundles and game views all ask this.
 */
export const isEnded = (status: unknown): boolean => status === 'finished' || status === 'abandoned';
