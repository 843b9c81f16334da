import { noDice } from '@fairdice/core/rules/core/dice';
import {
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameEvent,
  type GameState,
} from '@fairdice/core/rules/game';
import type { EventStore } from '../event-store/event-store.service';
import type { StoredEvent } from '../event-store/event-store.types';
import { InProcessGameEventBus } from './game-event-bus';
import { GameEventStream, isAccessRevoked, type StreamItem } from './game-stream';

const GAME = '11111111-1111-4111-8111-111111111111';
const ADA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const CY = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

/** A private 2-seat game's events: create (Ada), Bob joins, Bob leaves, Cy joins. */
function history(): { stored: StoredEvent[]; states: GameState[] } {
  const commands: GameCommand[] = [
    {
      type: 'create',
      gameId: GAME,
      ruleSet: 'farkle',
      options: {},
      seatCount: 2,
      visibility: 'private',
      creatorId: ADA,
      hotSeats: 0,
      commitment: 'c'.repeat(64),
      organizerSeed: null,
      clientSeeds: ['ada-seed'],
      turnTimeLimitSeconds: null,
    },
    { type: 'join', playerId: BOB, clientSeed: 'bob-seed' },
    { type: 'leave', playerId: BOB },
    { type: 'join', playerId: CY, clientSeed: 'cy-seed' },
  ];
  let state = emptyGame(GAME);
  const stored: StoredEvent[] = [];
  const states: GameState[] = [state];
  for (const command of commands) {
    const events = decideGame(state, command, noDice) as GameEvent[];
    for (const e of events) {
      state = evolveGame(state, e);
      states.push(state);
      stored.push({
        gameId: GAME,
        version: state.version,
        type: e.type,
        seat: e.seat,
        data: e.data,
        rollNumber: e.rollNumber,
        command: e.command,
        prevHash: '0'.repeat(64),
        hash: '0'.repeat(64),
        createdAt: new Date(0),
      });
    }
  }
  return { stored, states };
}

const storeOf = (events: StoredEvent[]) =>
  ({
    readEvents: (_id: string, after: number, limit: number) =>
      Promise.resolve(events.filter((e) => e.version > after).slice(0, limit)),
  }) as unknown as EventStore;

const mayView = (player: string) => (s: GameState) =>
  s.visibility === 'public' || s.creatorId === player || s.seats.some((x) => x.playerId === player);

async function drain(stream: GameEventStream): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

describe('GameEventStream access re-check', () => {
  const { stored, states } = history(); // versions: 1 created, 2 Ada seated, 3 Bob seated, 4 Bob left, 5 Cy seated

  it('withholds the event that removes the subscriber, yields AccessRevoked, and ends (live events)', async () => {
    const bus = new InProcessGameEventBus();
    const opened = states[3]; // Bob seated
    const stream = await new GameEventStream(storeOf(stored.slice(0, 3)), bus, GAME, 0, {
      state: opened,
      mayView: mayView(BOB),
    }).start();
    bus.publish(GAME, stored.slice(3));
    const items = await drain(stream);
    expect(items.filter((i) => !isAccessRevoked(i)).map((i) => (i as StoredEvent).version)).toEqual([1, 2, 3]);
    expect(items[items.length - 1]).toEqual({ kind: 'access-revoked', gameId: GAME, version: 4 });
  });

  it('the creator keeps receiving', async () => {
    const bus = new InProcessGameEventBus();
    const stream = await new GameEventStream(storeOf(stored.slice(0, 3)), bus, GAME, 0, {
      state: states[3],
      mayView: mayView(ADA),
    }).start();
    bus.publish(GAME, stored.slice(3));
    const first: StreamItem[] = [];
    for (let i = 0; i < 5; i++) first.push((await stream.next()).value as StreamItem);
    stream.close();
    expect(first.map((i) => (i as StoredEvent).version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('an `after` beyond the opening version still checks every event in between (none delivered up to `after`)', async () => {
    const bus = new InProcessGameEventBus();
    // Opened at version 3 but asking for events after 4: version 4 (Bob leaves) must still be checked.
    const stream = await new GameEventStream(storeOf(stored), bus, GAME, 4, {
      state: states[3],
      mayView: mayView(BOB),
    }).start();
    const items = await drain(stream);
    expect(items).toEqual([{ kind: 'access-revoked', gameId: GAME, version: 4 }]);
  });
});
