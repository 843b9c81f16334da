import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import type { GraphQLSchema } from 'graphql';
import type { GameState } from '@fairdice/core/rules/game';
import { DomainException } from '../../common/errors';
import { GamesController } from '../games.controller';
import { GamesResolver } from '../games.resolver';
import { GAME_MOVES, gameMove } from './game-moves';
import { mutationsOf } from './graphql-mutations';
import { operationOf, type MoveCommand } from './move-definition';

const root = join(__dirname, '..', '..', '..');
const openapi = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
};
const schemaGql = readFileSync(join(root, 'src', 'schema.gql'), 'utf8');

/** The routes Nest finds on the controller: [method name, HTTP method, path]. */
function routes(): Array<[string, string, string]> {
  const proto = GamesController.prototype as unknown as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => typeof proto[name] === 'function' && Reflect.hasMetadata(PATH_METADATA, proto[name] as object))
    .map((name) => [
      name,
      RequestMethod[Reflect.getMetadata(METHOD_METADATA, proto[name] as object) as number],
      Reflect.getMetadata(PATH_METADATA, proto[name] as object) as string,
    ]);
}

/** The schema GamesResolver alone makes (code first, as the app builds it). */
async function resolverSchema(): Promise<GraphQLSchema> {
  const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, { logger: false });
  try {
    return await app.get(GraphQLSchemaFactory).create([GamesResolver]);
  } finally {
    await app.close();
  }
}

const names = () => GAME_MOVES.map((m) => m.name);
const seated = { id: 'p1', displayName: 'Ada' };
const game = (family: 'five-dice' | 'farkle') =>
  ({ state: { family, ruleSet: family === 'farkle' ? 'farkle' : 'penta', seats: [] } }) as unknown as {
    state: GameState;
  };
const commandOf = (name: string) => gameMove(name).command as MoveCommand<Record<string, unknown>>;

describe('the game moves, declared once (src/games/moves)', () => {
  it('names every move once, with a scope and a description on REST', () => {
    const names = GAME_MOVES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of GAME_MOVES) {
      expect(['game:create', 'game:play']).toContain(m.scope);
      expect(m.rest.summary.length).toBeGreaterThan(0);
    }
  });

  it('every entry makes exactly one route on GamesController, with its method and path', () => {
    const moveRoutes = routes().filter(([name]) => names().includes(name));
    expect(moveRoutes).toEqual(GAME_MOVES.map((m) => [m.name, m.rest.method, m.rest.path]));
    // No two routes share a method and path (a move that shadows a hand-written route).
    const keys = routes().map(([, method, path]) => `${method} ${path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every entry makes exactly one current mutation (and its deprecated aliases) on GamesResolver', async () => {
    const fields = (await resolverSchema()).getMutationType()!.getFields();
    const declared = Object.values(fields).map((f) => [f.name, f.deprecationReason ?? undefined] as const);
    for (const m of GAME_MOVES) {
      const own = declared.filter(([name]) => mutationsOf(m).some((x) => x.name === name));
      expect(own).toEqual(mutationsOf(m).map((x) => [x.name, x.deprecationReason]));
      // (gameId, the input, idempotencyKey): the arguments a move's mutation takes.
      for (const x of mutationsOf(m))
        expect(fields[x.name].args.map((a) => a.name).sort()).toEqual(
          ['gameId', 'idempotencyKey', ...(x.input ? ['input'] : (x.args ?? []).map((a) => a.name))].sort(),
        );
      expect(own.filter(([, deprecated]) => deprecated === undefined)).toHaveLength(1);
    }
  });

  it('the committed contract has each move: its path and operationId in openapi.json, its mutations in schema.gql', () => {
    for (const m of GAME_MOVES) {
      const path = `/v1/games/${m.rest.path.replace(':id', '{id}')}`;
      const op = openapi.paths[path]?.[m.rest.method.toLowerCase()];
      expect({ path, operationId: op?.operationId, summary: op?.summary }).toEqual({
        path,
        operationId: `Games_${m.name}`,
        summary: m.rest.summary,
      });
      for (const mutation of mutationsOf(m)) expect(schemaGql).toMatch(new RegExp(`^  ${mutation.name}\\(`, 'm'));
    }
  });

  it("a move's operation is its kebab-cased name (metrics and the idempotency hash keep their names)", () => {
    expect(GAME_MOVES.map(operationOf)).toEqual([
      'join',
      'leave',
      'set-seed',
      'start',
      'cancel',
      'rematch',
      'roll',
      'score',
      'set-aside',
      'bank',
      'quit',
    ]);
  });

  it('builds the commands the rules decide, and refuses a move of another family before the rules', () => {
    expect(commandOf('roll').build(seated, { hold: [0, 2] })(game('five-dice'))).toEqual({
      type: 'play',
      playerId: 'p1',
      move: { type: 'roll', hold: [0, 2] },
    });
    expect(() => commandOf('roll').build(seated, { hold: [0] })(game('farkle'))).toThrow(DomainException);
    expect(commandOf('score').build(seated, { box: 'chance' })(game('five-dice'))).toEqual({
      type: 'play',
      playerId: 'p1',
      move: { type: 'score', box: 'chance' },
    });
    for (const [name, input] of [
      ['score', { box: 'chance' }],
      ['setAside', { dice: [0] }],
      ['bank', {}],
    ] as const) {
      const family = name === 'score' ? 'farkle' : 'five-dice';
      let error: unknown;
      try {
        commandOf(name).build(seated, input)(game(family));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainException);
      expect((error as DomainException).code).toBe('INVALID_COMMAND');
    }
    expect(commandOf('roll').args?.({})).toEqual({ hold: null });
    expect(commandOf('join').outsiderMayAct).toBe(true);
    expect(GAME_MOVES.filter((m) => (m.command as MoveCommand<object>).outsiderMayAct).map((m) => m.name)).toEqual([
      'join',
    ]);
  });
});
