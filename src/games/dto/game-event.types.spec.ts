import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIFECYCLE_EVENT_TYPES } from '@fairdice/core/rules/game/types';
import { FARKLE_EVENT_TYPES, FIVE_DICE_EVENT_TYPES, GAME_EVENT_TYPES } from '../../common/graphql/enums';
import { eventTypeName, toTypedEvent } from './game-event.types';
import type { GameEventView } from './game-event-view.model';

/** The `type` literals of a family's events, read from its types.ts (the events section). */
function declaredEventTypes(family: 'five-dice' | 'farkle'): string[] {
  const source = readFileSync(
    join(__dirname, '..', '..', '..', 'packages', 'core', 'src', 'rules', family, 'types.ts'),
    'utf8',
  );
  const start = source.search(/\/\/ -+ ?events/);
  const end = source.indexOf('// --', start + 10);
  const section = source.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/readonly type: '(\w+)'/g)].map((m) => m[1]);
}

const view = (type: string, seat: number | null, data: Record<string, unknown>): GameEventView => ({
  gameId: '3b0e2c1a-0000-4000-8000-000000000000',
  version: 7,
  type,
  seat,
  data,
  rollNumber: null,
  command: null,
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
  createdAt: new Date(0),
});

describe('GraphQL event types', () => {
  it("cover exactly the event types the families declare (a new one fails here, not in a client's request)", () => {
    expect([...FIVE_DICE_EVENT_TYPES].sort()).toEqual(declaredEventTypes('five-dice').sort());
    expect([...FARKLE_EVENT_TYPES].sort()).toEqual(declaredEventTypes('farkle').sort());
    expect(new Set(GAME_EVENT_TYPES)).toEqual(
      new Set([...LIFECYCLE_EVENT_TYPES, ...FIVE_DICE_EVENT_TYPES, ...FARKLE_EVENT_TYPES]),
    );
  });

  it('name one object type per event type and family; lifecycle types are shared', () => {
    expect(eventTypeName('rolled', 'five-dice')).toBe('FiveDiceRolledEvent');
    expect(eventTypeName('rolled', 'farkle')).toBe('FarkleRolledEvent');
    expect(eventTypeName('gameStarted', 'farkle')).toBe('GameStartedEvent');
    expect(eventTypeName('gameStarted', 'five-dice')).toBe('GameStartedEvent');
    for (const type of FIVE_DICE_EVENT_TYPES) expect(eventTypeName(type, 'five-dice')).toMatch(/^FiveDice\w+Event$/);
    for (const type of FARKLE_EVENT_TYPES) expect(eventTypeName(type, 'farkle')).toMatch(/^Farkle\w+Event$/);
    // Never a guess: another family's event type is an error.
    expect(() => eventTypeName('scored', 'farkle')).toThrow(/no GraphQL type for farkle event scored/);
    expect(() => eventTypeName('banked', 'five-dice')).toThrow(/five-dice event banked/);
  });

  it('flatten the payload onto the envelope, which wins; derived fields for seedSet and gameStarted', () => {
    const rolled = toTypedEvent(
      view('rolled', 1, { type: 'rolled', seat: 1, dice: [6, 6, 2, 1, 6], held: [], rollInTurn: 1, version: 99 }),
      'five-dice',
    );
    expect(rolled).toMatchObject({ __typename: 'FiveDiceRolledEvent', version: 7, dice: [6, 6, 2, 1, 6], held: [] });
    expect(rolled.data).toEqual({
      type: 'rolled',
      seat: 1,
      dice: [6, 6, 2, 1, 6],
      held: [],
      rollInTurn: 1,
      version: 99,
    });
    const organizer = toTypedEvent(view('seedSet', null, { seat: null, playerId: 'p', clientSeed: 's' }), 'farkle');
    expect(organizer).toMatchObject({ __typename: 'SeedSetEvent', organizer: true, clientSeed: 's' });
    const own = toTypedEvent(view('seedSet', 2, { seat: 2, playerId: 'p', clientSeed: 's' }), 'farkle');
    expect(own.organizer).toBe(false);
    const legacyStart = toTypedEvent(view('gameStarted', null, { clientSeeds: ['a', 'b'] }), 'farkle');
    expect(legacyStart).toMatchObject({ clientSeeds: ['a', 'b'], clientSeedsGenerated: null });
  });
});
