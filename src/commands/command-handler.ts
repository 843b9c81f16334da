/**
 * The one command handler of every aggregate (games, tournaments, and the next ones). A command is
 *
 *   load → authorize → If-Match → build the command → decide → append at the expected version
 *   → publish once committed → answer
 *
 * inside middleware that is the same for all: counting (fairdice_commands_total, by type and
 * outcome), idempotency (an Idempotency-Key's first outcome is stored with the events and replayed
 * on a retry, IdempotencyService), and one fresh retry of a command decided on a cached state that
 * turned out stale. Moves the service makes itself (timeouts, computer turns, auto-scores,
 * abandonment) go through `serviceMove`: the same steps behind one "still at this version" check.
 *
 * The aggregate supplies its steps as a `CommandTarget`; its decider stays pure in packages/core,
 * and its append is the event store's (src/event-store, the one place that appends events).
 * docs/architecture.md, "The life of a command".
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { afterCommit, currentUnitOfWork } from '../database/unit-of-work';
import { METRICS, type Metrics } from '../metrics/metrics';
import { checkIfMatch, IdempotencyService, parseIdempotencyKey, requestHash } from '../reliability';

/** Whoever sends a command (a player, or an app acting for one). */
export interface Actor {
  id: string;
}

/** What every command may carry from its transport. */
export interface CommandOptions {
  /** Idempotency-Key header / idempotencyKey argument (validated here: 400 when malformed). */
  idempotencyKey?: string | null;
  /** If-Match: the versions the client decided on ('*' any). */
  ifMatch?: '*' | number[];
  /** Called when the answer is the stored one of an earlier request with the same key. */
  onReplay?: () => void;
}

/** The steps of one aggregate that the handler runs (a game, a tournament, …). */
export interface CommandTarget<L, C, E, A> {
  /** 'game', 'tournament', 'account': in If-Match's 412 and in metrics (`tournament.start`; games unprefixed). */
  readonly kind: 'game' | 'tournament' | 'account' | 'challenge' | 'seek';
  /** The aggregate, read fresh from the database or (fresh = false) from a cache when it has one. */
  load(id: string, fresh: boolean): Promise<L | null>;
  /** True when `loaded` came from a cache without a read (it may be stale: see `run`). */
  fromCache(loaded: L): boolean;
  /** Drops a cached entry found stale. */
  forget(id: string): void;
  version(loaded: L): number;
  notFound(): DomainException;
  /**
   * Throws the coded refusal of an actor who may not send this command (not found for whoever may
   * not see it, NOT_SEATED…). `outsiderMayAct`: joining or registering, open to a non-member.
   */
  authorize(loaded: L, actor: Actor, outsiderMayAct: boolean): void;
  /** The events of `command` on the loaded state (a rule error thrown as its DomainException). */
  decide(loaded: L, command: C): readonly E[];
  /**
   * Appends `events` at the loaded version (VERSION_CONFLICT when it moved on), with their effects.
   * `stored`: an idempotent command's answer, for a store that writes the outcome with the events.
   */
  append(loaded: L, events: readonly E[], command: C, stored?: (appended: A) => unknown): Promise<A>;
  /** Tells live subscribers; called after the commit. */
  publish(id: string, appended: A): void;
}

/** One command of an actor on an existing aggregate: either `build` (decided, then appended) or `act`. */
export type CommandRequest<L, C, A, R> = CommandRequestBase<L, A, R> &
  (
    | {
        /** The command, from the loaded aggregate (may throw a coded error: nothing is stored). */
        build(loaded: L): C;
        act?: undefined;
      }
    | {
        /** The command, if the process starts with one (see `act`). */
        build?(loaded: L): C;
        /**
         * Replaces decide → append when a command is a process of several decisions in one
         * transaction (a tournament's start: close, start, round 1).
         */
        act(loaded: L, command: C | null): Promise<A>;
      }
  );

interface CommandRequestBase<L, A, R> {
  /** The command's name: the request hash's operation and the metrics type. */
  operation: string;
  id: string;
  /** What is hashed with the operation and id (a retry under the key must send the same). */
  args: unknown;
  actor: Actor;
  opts: CommandOptions;
  outsiderMayAct?: boolean;
  /** The answer, from what was appended. */
  respond(appended: A, loaded: L): R | Promise<R>;
  /** The answer an idempotent command stores, built inside the append (group commit writes it there). */
  storedAnswer?: (appended: A, loaded: L) => unknown;
  /** Wraps the idempotent run (e.g. one command at a time per tournament on this instance). */
  around?<T>(work: () => Promise<T>): Promise<T>;
  /** The idempotency outcome is stored by the append's own statement (group commit; game moves). */
  batched?: boolean;
}

@Injectable()
export class CommandHandler {
  constructor(
    private readonly idempotency: IdempotencyService,
    @Optional() @Inject(METRICS) private readonly metrics?: Metrics,
  ) {}

  /** Runs one command of an actor through the middleware and the steps of `target`. */
  run<L, C, E, A, R>(target: CommandTarget<L, C, E, A>, request: CommandRequest<L, C, A, R>): Promise<R> {
    const type = commandType(target.kind, request.operation);
    return this.counted(type, request.opts, (opts) => {
      const key = parseIdempotencyKey(opts.idempotencyKey);
      // Hashed only under a key: without one nothing is stored to compare a retry with (every move pays it otherwise).
      const hash = key === undefined ? '' : requestHash(type, request.id, request.args);
      const idempotent = () =>
        this.idempotency.run(
          { playerId: request.actor.id, key, hash, onReplay: opts.onReplay, batched: request.batched },
          () => this.decideAndAppend(target, { ...request, opts }, false),
        );
      return request.around ? request.around(idempotent) : idempotent();
    });
  }

  /**
   * A creation (no aggregate to load yet) through the same middleware: counted, and idempotent
   * under its key (201 replayed). `create` decides and appends the first events.
   */
  create<R>(
    kind: CommandTarget<unknown, unknown, unknown, unknown>['kind'],
    request: { operation: string; args: unknown; actor: Actor; opts: CommandOptions; aggregateId?: string },
    check: (() => void) | null,
    create: () => Promise<R>,
  ): Promise<R> {
    const type = commandType(kind, request.operation);
    return this.counted(type, request.opts, (opts) => {
      const key = parseIdempotencyKey(opts.idempotencyKey);
      // Validate first, hash only valid input (a refused creation stores nothing, not even its key).
      check?.();
      return this.idempotency.run(
        {
          playerId: request.actor.id,
          key,
          hash: key === undefined ? '' : requestHash(type, request.aggregateId ?? null, request.args),
          successStatus: 201,
          onReplay: opts.onReplay,
        },
        create,
      );
    });
  }

  /**
   * A move the service makes itself, due at `version`: applied only while the aggregate is still
   * there (a command that came first, or another instance that won the race, makes it a no-op:
   * null). `build` gives the command, null for nothing to do, or 'later' when it cannot be decided
   * yet (a table still being built).
   */
  async serviceMove<L, C, E, A>(
    target: CommandTarget<L, C, E, A>,
    id: string,
    version: number,
    build: (loaded: L) => Promise<C | null | 'later'>,
  ): Promise<A | null | 'later'> {
    const loaded = await target.load(id, true);
    if (!loaded || target.version(loaded) !== version) return null;
    const command = await build(loaded);
    if (command === null) return null;
    if (command === 'later') return 'later';
    const events = target.decide(loaded, command);
    let appended: A;
    try {
      appended = await target.append(loaded, events, command);
    } catch (err) {
      if (err instanceof DomainException && err.code === 'VERSION_CONFLICT') return null;
      throw err;
    }
    afterCommit(() => target.publish(id, appended));
    return appended;
  }

  /**
   * Load → authorize → If-Match → build → decide → append → publish after commit → answer.
   * Decided on a cached state (no read), a refusal may come from a stale cache (another instance
   * wrote and its notification has not arrived): nothing was written, so the entry is dropped and
   * the command runs once more on a fresh load, and the answer is the one a fresh load gives. A
   * VERSION_CONFLICT from the append is not retried: it cannot be told apart from a genuine
   * concurrent command, and re-running a double-clicked command would apply it twice.
   */
  private async decideAndAppend<L, C, E, A, R>(
    target: CommandTarget<L, C, E, A>,
    request: CommandRequest<L, C, A, R>,
    fresh: boolean,
  ): Promise<R> {
    // Inside an idempotent command's transaction a failed statement aborts it: read fresh there.
    const loaded = await target.load(request.id, fresh || currentUnitOfWork() !== undefined);
    if (!loaded) throw target.notFound();
    try {
      target.authorize(loaded, request.actor, request.outsiderMayAct ?? false);
      checkIfMatch(request.opts.ifMatch, target.version(loaded), target.kind);
      const appended = request.act
        ? await request.act(loaded, request.build?.(loaded) ?? null)
        : await this.decideThenAppend(target, loaded, request.build(loaded), request.storedAnswer);
      afterCommit(() => target.publish(request.id, appended));
      return await request.respond(appended, loaded);
    } catch (err) {
      if (!target.fromCache(loaded) || !(err instanceof DomainException) || err.code === 'VERSION_CONFLICT') throw err;
      target.forget(request.id);
      return this.decideAndAppend(target, request, true);
    }
  }

  private decideThenAppend<L, C, E, A>(
    target: CommandTarget<L, C, E, A>,
    loaded: L,
    command: C,
    storedAnswer?: (appended: A, loaded: L) => unknown,
  ): Promise<A> {
    const stored = storedAnswer && ((appended: A) => storedAnswer(appended, loaded));
    return target.append(loaded, target.decide(loaded, command), command, stored);
  }

  /** Runs a command and counts it by type and outcome (fairdice_commands_total). */
  private async counted<T>(type: string, opts: CommandOptions, run: (opts: CommandOptions) => Promise<T>): Promise<T> {
    if (!this.metrics) return run(opts);
    let replayed = false;
    const onReplay = () => {
      replayed = true;
      opts.onReplay?.();
    };
    try {
      const result = await run({ ...opts, onReplay });
      this.metrics.commands.inc({ type, outcome: replayed ? 'replayed' : 'ok' });
      return result;
    } catch (err) {
      this.metrics.commands.inc({ type, outcome: err instanceof DomainException ? err.code : 'error' });
      throw err;
    }
  }
}

/** A command's name in metrics and request hashes: games' unprefixed (as before there were others), `tournament.start`. */
const commandType = (kind: string, operation: string) => (kind === 'game' ? operation : `${kind}.${operation}`);
