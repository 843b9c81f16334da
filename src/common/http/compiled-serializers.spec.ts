import Fastify from 'fastify';
import { compileGameViewSerializer, registerCompiledSerializers } from './compiled-serializers';

/** A five-dice game view in progress, every field its schema has (openapi/openapi.json GameView). */
const view = () => ({
  id: '7b0c4a3e-8f5e-4a37-9d55-3c0f4b8f1a10',
  ruleSet: 'simple',
  family: 'five-dice',
  options: { joker: 'none', extraFiveOfAKindBonus: 0, upperBonusThreshold: 63, upperBonusPoints: 35 },
  status: 'in_progress',
  visibility: 'private',
  version: 4,
  seatCount: 1,
  creatorId: '0d9c1c1e-59a4-4c51-8b1e-5f9d8a0c2b11',
  seats: [
    {
      seat: 0,
      playerId: '0d9c1c1e-59a4-4c51-8b1e-5f9d8a0c2b11',
      displayName: 'Ada "the dice" <Lovelace>',
      hotSeat: false,
      computer: null,
      clientSeed: null,
      clientSeedGenerated: true,
    },
  ],
  currentSeat: 0,
  currentPlayerId: '0d9c1c1e-59a4-4c51-8b1e-5f9d8a0c2b11',
  dice: [1, 3, 3, 5, 6],
  held: [],
  rollsLeft: 2,
  fiveDice: {
    rollInTurn: 1,
    sheets: [
      {
        seat: 0,
        boxes: [
          { box: 'ones', points: null },
          { box: 'twos', points: 4 },
        ],
        upper: 4,
        upperBonus: 0,
        lower: 0,
        extraBonus: 0,
        total: 4,
        quit: false,
      },
    ],
    scoreOptions: {
      boxes: [{ box: 'ones', points: 1, bonus: 0, allowed: true }],
      mustSacrifice: false,
      jokerActive: false,
      fiveOfAKind: false,
    },
  },
  farkle: null,
  standings: null,
  turnTimeLimitSeconds: null,
  computerLevel: 'medium',
  advice: 'off',
  rated: false,
  rematchOf: null,
  organizerSeed: null,
  commitment: 'a'.repeat(64),
  chainHead: 'b'.repeat(64),
  serverSeed: null,
  createdAt: new Date('2026-12-03T12:00:00.000Z'),
  updatedAt: new Date('2026-12-03T12:00:01.500Z'),
  startedAt: new Date('2026-12-03T12:00:00.250Z'),
  finishedAt: null,
});

describe('compiled serializers (decision 0141)', () => {
  it('writes a game view as JSON.stringify does, from the committed OpenAPI schema', () => {
    const serialize = compileGameViewSerializer();
    expect(serialize).not.toBeNull();
    const v = view();
    expect(JSON.parse(serialize!(v))).toEqual(JSON.parse(JSON.stringify(v)));
  });

  const app = async (verify: boolean) => {
    const fastify = Fastify();
    expect(registerCompiledSerializers(fastify, { verify })).toBe(true);
    fastify.get('/v1/games/:id', () => ({ ...view(), notInTheSchema: 'x' }));
    fastify.get('/v1/games/:id/events', () => ({ events: [{ type: 'x', extra: 1 }], version: 4 }));
    fastify.get('/v1/players/me', () => ({ ...view(), notInTheSchema: 'x' }));
    await fastify.ready();
    return fastify;
  };

  it('serves the /v1/games routes’ game views with it, and leaves other answers and routes to JSON.stringify', async () => {
    const fastify = await app(false);
    const game = await fastify.inject({ url: '/v1/games/1' });
    expect(game.statusCode).toBe(200);
    expect(game.headers['content-type']).toMatch(/^application\/json/);
    // Only the compiled serializer drops a field its schema does not have: it was used.
    const { notInTheSchema, ...rest } = game.json();
    expect(notInTheSchema).toBeUndefined();
    expect(rest).toEqual(JSON.parse(JSON.stringify(view())));
    expect((await fastify.inject({ url: '/v1/games/1/events' })).json()).toEqual({
      events: [{ type: 'x', extra: 1 }],
      version: 4,
    });
    expect((await fastify.inject({ url: '/v1/players/me' })).json().notInTheSchema).toBe('x');
    await fastify.close();
  });

  it('under verification (tests), an answer the schema does not describe exactly fails loudly', async () => {
    const fastify = await app(true);
    expect((await fastify.inject({ url: '/v1/games/1' })).statusCode).toBe(500);
    await fastify.close();
  });
});
