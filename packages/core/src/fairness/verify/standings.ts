/**
 * Check `standings` (totals and ranking recomputed from the replayed state = the gameFinished
 * event's and the bundle's finalStandings) and the report's summary, built from the same replay.
 */
import type { SeatStanding } from '../../rules/core/family';
import { familyById } from '../../rules/registry';
import type { AuditBundle, AuditStanding } from '../audit-bundle';
import { brief, type Checks, isObject, listedSeats, same } from './checks';
import type { Replay } from './replay';
import { sortedOrigins } from './seed-origins';
import type { VerifySummary } from './types';

/**
 * Checks the standings (when the replay completed) and returns the summary; null when the
 * standings cannot be computed (then `standings` fails).
 */
export function checkStandingsAndSummarize(
  checks: Checks,
  b: AuditBundle,
  replay: Replay,
  replayDone: boolean,
  publishedHeads: VerifySummary['publishedHeads'],
  head: string,
): VerifySummary | null {
  const { state, startState, finishedVersion } = replay;
  try {
    const play = state.play;
    const standings: SeatStanding[] = play !== null ? familyById(state.family).standings(play) : [];
    const playerOf = (seat: number) => state.seats[seat]?.playerId ?? null;
    const ranking: AuditStanding[] = standings.map((s) => ({
      rank: s.rank,
      seat: s.seat,
      playerId: playerOf(s.seat),
      score: s.total,
      quit: s.quit,
    }));
    if (replayDone) {
      if (state.status === 'finished') {
        if (!same(state.standings, standings)) {
          checks.fail(
            'standings',
            finishedVersion,
            'the standings in the gameFinished event differ from those recomputed from the replayed state',
          );
        } else if (!same(b.finalStandings, ranking)) {
          checks.fail(
            'standings',
            finishedVersion,
            `finalStandings ${brief(b.finalStandings)} differ from the ranking recomputed by replay ${brief(ranking)}`,
          );
        }
      } else if (b.finalStandings !== null) {
        checks.fail('standings', null, 'finalStandings must be null: the game is not finished');
      }
    }
    const names = new Map(
      (b.players as unknown[])
        .filter(isObject)
        .map((p) => [p.seat, typeof p.displayName === 'string' ? p.displayName : null]),
    );
    return {
      gameId: b.gameId,
      ruleSet: state.ruleSet,
      family: state.family,
      status: state.status,
      players: listedSeats(startState ?? state, b.formatVersion).map((s) => ({
        seat: s.seat,
        playerId: s.playerId,
        displayName: names.get(s.seat) ?? null,
        clientSeed: s.clientSeed,
      })),
      seedOrigins: startState ? replay.originsAtStart : sortedOrigins(replay.origins),
      publishedHeads,
      rolls: state.rollCount,
      events: b.events.length,
      totals: [...standings].sort((x, y) => x.seat - y.seat).map((s) => ({ seat: s.seat, total: s.total })),
      ranking,
      head,
      serverSeedRevealed: b.serverSeed !== null,
    };
  } catch (err) {
    checks.fail('standings', finishedVersion, `cannot compute the standings: ${(err as Error).message}`);
    return null;
  }
}
