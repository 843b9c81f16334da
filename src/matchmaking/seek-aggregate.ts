/**
 * A seek as the one command handler (src/commands) sees it: loaded from the seek store, decided by
 * the pure seek decider (@fairdice/core/rules/seek), appended at the expected version by the
 * store. Who may cancel is the decider's rule (NOT_YOUR_SEEK), so it is the same for every caller.
 */
import { Injectable } from '@nestjs/common';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { decideSeek, type SeekCommand, type SeekEvent } from '@fairdice/core/rules/seek';
import type { CommandTarget } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { SeekStore, type LoadedSeek } from '../event-store/seek-store.service';

export const seekNotFound = () => new DomainException('SEEK_NOT_FOUND', 'No such seek');

@Injectable()
export class SeekAggregate implements CommandTarget<LoadedSeek, SeekCommand, SeekEvent, LoadedSeek> {
  readonly kind = 'seek';

  constructor(private readonly store: SeekStore) {}

  load(id: string): Promise<LoadedSeek | null> {
    return this.store.load(id);
  }

  fromCache(): boolean {
    return false;
  }

  forget(): void {}

  version(s: LoadedSeek): number {
    return s.state.version;
  }

  notFound(): DomainException {
    return seekNotFound();
  }

  /** Seeks are public (the lobby): anyone may address one; the decider says who may change it. */
  authorize(): void {}

  decide(s: LoadedSeek, command: SeekCommand): readonly SeekEvent[] {
    const events = decideSeek(s.state, command);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    return events;
  }

  append(s: LoadedSeek, events: readonly SeekEvent[], command: SeekCommand): Promise<LoadedSeek> {
    return this.store.append(s, events, command);
  }

  /** The lobby is read, not pushed; a pairing reaches the players as gameStarted on their streams. */
  publish(): void {}
}
