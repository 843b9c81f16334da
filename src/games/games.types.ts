/** What the games' services share: command options and answers, page shapes, the id check. */
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import type { OptimalTables } from '@fairdice/core/rules/computer';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import type { ComputerLevel, GameState, TournamentRef } from '@fairdice/core/rules/game';
import type { RuleSetName } from '@fairdice/core/rules/registry';
import type { CommandOptions as AnyCommandOptions } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import type { CursorPage } from '../common/pagination/cursor';
import type { StoredEvent } from '../event-store/event-store.types';
import type { CommandEventsView, GameEventView, GameSummaryView, GameView } from './dto/game-view.model';
import { toEventView } from './game-view';

/**
 * Loads the solved tables `level` plays with for a game's options (src/async/computer binds it to
 * the advice tables: optimal the solo tables, expert in a two-seat Farkle game the two-player
 * table); null while they are still being built.
 */
export type OptimalTablesLoader = (state: GameState, level?: ComputerLevel) => Promise<OptimalTables | null>;

/** The outcome of a service move: applied (new version), skipped (the game moved on), or waiting for a table. */
export type ServiceMoveResult = { version: number; events: number } | null | 'table-building';

/** Per-request options of a game command (src/reliability, docs/operations.md). */
export interface CommandOptions extends AnyCommandOptions {
  /**
   * REST `Prefer: return=minimal`: answer with the command's events and the new version
   * (CommandEventsView) instead of the whole game, which is then not built at all. A replayed
   * outcome (Idempotency-Key) is stored as the whole game; its compact form is read back from the
   * events (replayedCompact).
   */
  compact?: boolean;
  /** Internal: receives the compact answer of a command run inside an idempotent transaction. */
  onCompact?: (compact: CommandEventsView) => void;
}

/** What a command answers: the game, or its compact form when `compact` was asked for. */
export type CommandResult = GameView | CommandEventsView;

export const compactOf = (gameId: string, stored: readonly StoredEvent[]): CommandEventsView => ({
  gameId,
  version: stored[stored.length - 1].version,
  events: stored.map(toEventView),
});

/** Default of GAME_ABANDON_AFTER_MS / GAME_EXPIRE_OPEN_AFTER_MS: 30 days. */
export const DEFAULT_INACTIVITY_MS = 30 * 24 * 60 * 60 * 1000;

export const gameNotFound = () => new DomainException('GAME_NOT_FOUND', 'No such game');

/** Ids are checked before any query: a malformed one is VALIDATION_FAILED. */
export function checkGameId(id: unknown): string {
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new DomainException('VALIDATION_FAILED', 'gameId must be a UUID', {
      errors: [{ field: 'gameId', problems: ['gameId must be a UUID'] }],
    });
  }
  return id.toLowerCase();
}

/** One game a tournament round creates (GameCreation.createTournamentGame). */
export interface TournamentGameSpec {
  gameId: string;
  ruleSet: RuleSetName;
  options: Record<string, unknown>;
  visibility: 'public' | 'private';
  turnTimeLimitSeconds: number | null;
  /** hex: the round seed in duplicate rounds, a fresh server seed at tables. */
  serverSeed: string;
  /** Keep the server seed secret after the game ends (duplicate rounds, until the round ends). */
  seedSealed: boolean;
  organizerSeed: string;
  /** In seat order: each entrant's registered seed. */
  seats: Array<{ playerId: string; clientSeed: string }>;
  tournament: TournamentRef;
}

/** A started game of players paired by the service (GameCreation.createStartedGame): an accepted challenge, a seek's pairing. */
export interface StartedGameSpec {
  gameId: string;
  /** Two or more different players; the seat order unless `order` is given. */
  players: string[];
  ruleSet: RuleSetName;
  rated: boolean;
  /** The per-move time limit, seconds (rated games need one; null: a casual game without one). */
  turnTimeLimitSeconds: number | null;
  /** Whether the players may ask for advice (default forbidden; rated games always forbid it). */
  advice?: 'forbidden' | 'allowed';
  /** The seat order from the game's commitment (e.g. seatOrder, @fairdice/core/fairness/seat-order). */
  order?: (commitment: string, players: readonly string[]) => string[];
}

/** A page of games: cursor paging, plus the deprecated offset of the next page (offset paging only). */
export type GameListPage = CursorPage<GameSummaryView> & { nextOffset: number | null };
/**
 * A page of events: cursor paging, plus the version to pass as `after` for the next page and the
 * game's family (GraphQL types each event by type and family).
 */
export type GameEventListPage = CursorPage<GameEventView> & { nextAfter: number | null; family: FamilyId };
