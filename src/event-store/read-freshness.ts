/**
 * When a read may be answered from the event store's cache without asking PostgreSQL
 * (decision 0150). A cached entry is *current* when no other instance can have committed a newer
 * version of its game without this instance knowing:
 *
 * - Peers. With one instance (`single`: the in-process bus, EVENT_BUS=memory or the embedded
 *   database) every commit goes through this cache. With several (`listening`), every commit sends
 *   NOTIFY '<gameId>:<version>' and this instance's LISTEN session hears it; while that session is
 *   down (`deaf`, also before it first connected) nothing is current. Each (re)connection starts a
 *   new epoch: notifications sent while the session was down are lost, so an entry confirmed in an
 *   earlier epoch is not current any more.
 * - Confirmation. An entry is confirmed by a read from the database or by this instance's own
 *   commit, stamped with the epoch and time when that began. A notification of a newer version
 *   (`noted`) outdates it, even one heard while the load that stores it was still under way.
 * - Age. A confirmation counts for at most `maxAgeMs` (GAME_READ_CACHE_MAX_AGE_MS): a bound on
 *   staleness even if the LISTEN session stopped hearing without failing. 0 turns cached reads off.
 *
 * Pure bookkeeping (no I/O); the clock is injected for its unit test.
 */

type PeerSignals = 'single' | 'listening' | 'deaf';

/** When, and in which LISTEN epoch, an entry's confirmation began. */
export interface ReadStamp {
  epoch: number;
  confirmedAt: number;
}

export class ReadFreshness {
  private peers: PeerSignals = 'deaf';
  private epoch = 0;
  /** The highest version each recently signalled game reached (oldest signal out first). */
  private readonly noted = new Map<string, number>();

  constructor(
    readonly maxAgeMs: number,
    private readonly maxNoted: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stamp for a confirmation that begins now (a load's read or a commit). */
  stamp(): ReadStamp {
    return { epoch: this.epoch, confirmedAt: this.now() };
  }

  /** One instance: every commit is this instance's own. */
  single(): void {
    this.peers = 'single';
  }

  /** The LISTEN session is (again) hearing every commit: a new epoch begins. */
  listening(): void {
    this.peers = 'listening';
    this.epoch++;
    this.noted.clear();
  }

  /** The LISTEN session was lost: nothing is current until it is back. */
  deaf(): void {
    if (this.peers === 'single') return;
    this.peers = 'deaf';
    this.epoch++;
    this.noted.clear();
  }

  /** A commit of `version` of the game was signalled. */
  note(gameId: string, version: number): void {
    const known = this.noted.get(gameId);
    if (known !== undefined && known >= version) return;
    this.noted.delete(gameId);
    this.noted.set(gameId, version);
    if (this.noted.size > this.maxNoted) this.noted.delete(this.noted.keys().next().value as string);
  }

  /** Whether the game's entry at `version`, confirmed as `stamp` says, may answer a read now. */
  isCurrent(gameId: string, version: number, stamp: ReadStamp | undefined): boolean {
    if (!stamp || this.maxAgeMs <= 0 || this.peers === 'deaf') return false;
    if (this.now() - stamp.confirmedAt > this.maxAgeMs) return false;
    if (this.peers === 'single') return true;
    return stamp.epoch === this.epoch && version >= (this.noted.get(gameId) ?? 0);
  }
}
