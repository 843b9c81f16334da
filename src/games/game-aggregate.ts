/**
 * A game as the one command handler (src/commands) sees it: loaded from the event store (its
 * cache first), authorized, decided by the pure game decider on the game's own dice, appended
 * with its read model and effects at the expected version, published to the game's subscribers.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  decideGame,
  evolveGame,
  maySeeGame,
  seedsStateFor,
  type GameCommand,
  type GameEvent,
} from '@fairdice/core/rules/game';
import type { Actor, CommandTarget } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { InactivityPeriods } from '../event-store/async-effects';
import { EventStore, type AppendResult, type LoadedGame } from '../event-store/event-store.service';
import { DiceService } from './dice.service';
import { GameEventBus } from './game-event-bus';
import { DEFAULT_INACTIVITY_MS, gameNotFound } from './games.types';
import { readModel } from './read-model';

@Injectable()
export class GameAggregate implements CommandTarget<LoadedGame, GameCommand, GameEvent, AppendResult> {
  readonly kind = 'game';
  /** How long a game may sit without a command before the service ends it (src/async/inactivity). */
  readonly inactivity: InactivityPeriods;

  constructor(
    private readonly store: EventStore,
    private readonly dice: DiceService,
    private readonly bus: GameEventBus,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.inactivity = {
      abandonAfterMs: config?.GAME_ABANDON_AFTER_MS ?? DEFAULT_INACTIVITY_MS,
      expireOpenAfterMs: config?.GAME_EXPIRE_OPEN_AFTER_MS ?? config?.GAME_ABANDON_AFTER_MS ?? DEFAULT_INACTIVITY_MS,
    };
  }

  load(id: string, fresh: boolean): Promise<LoadedGame | null> {
    return this.store.load(id, { cached: !fresh });
  }

  fromCache(g: LoadedGame): boolean {
    return g.fromCache === true;
  }

  forget(id: string): void {
    this.store.forget(id);
  }

  version(g: LoadedGame): number {
    return g.state.version;
  }

  notFound(): DomainException {
    return gameNotFound();
  }

  /**
   * Only a seated player may act, whatever the command; a private game is not found for anyone
   * else. `outsiderMayAct` (join): an open game's id works as an invitation.
   */
  authorize(g: LoadedGame, actor: Actor, outsiderMayAct: boolean): void {
    if (!maySeeGame(g.state, actor) && !(outsiderMayAct && g.state.status === 'open')) throw gameNotFound();
    if (!outsiderMayAct && !g.state.seats.some((s) => s.playerId === actor.id))
      throw new DomainException('NOT_SEATED', 'You do not hold a seat in this game');
  }

  /** The events of `command`, rolled with the game's own seeds (docs/fairness.md). */
  decide(g: LoadedGame, command: GameCommand): readonly GameEvent[] {
    const roller = this.dice.rollerFor({ serverSeed: g.row.serverSeed, state: seedsStateFor(g.state, command) });
    const events = decideGame(g.state, command, roller);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    return events;
  }

  /**
   * Appends with the read model and the effects (deadline, jobs, webhooks) in the same statement.
   * `respond` builds an idempotent command's stored answer inside the append (its outcome record
   * is written with the events).
   */
  append(
    g: LoadedGame,
    events: readonly GameEvent[],
    _command?: GameCommand,
    respond?: (r: AppendResult) => unknown,
  ): Promise<AppendResult> {
    const after = events.reduce(evolveGame, g.state);
    return this.store.append(g, events, readModel(g.state, after, events, this.inactivity), respond);
  }

  publish(id: string, appended: AppendResult): void {
    this.bus.publish(id, appended.stored);
  }
}
