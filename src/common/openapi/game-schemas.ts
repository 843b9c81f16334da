/**
 * OpenAPI schemas of what the rules engine stores and replays: options per family, one schema per
 * event type and per command, per game family, and the audit bundle. The shapes mirror
 * packages/core/src/rules (game/types.ts, five-dice/types.ts, farkle/types.ts and the options.ts of each family) and
 * packages/core/src/fairness/audit-bundle.ts; the contract tests validate every event, command
 * and bundle the e2e suite produces against them, so a drift fails `npm test`.
 *
 * Events and commands are discriminated by `type` within a family. The families reuse some names
 * with different payloads (`rolled`, `quit`, `finished`; the `roll` move), so a game's events are
 * `FiveDiceGameEvent` or `FarkleGameEvent` according to the game's `family`, and `GameEvent`
 * is the choice of the two (anyOf: a lifecycle event is valid in both).
 *
 * The parts: game-schema-fields.ts (shared fields), option-schemas.ts (enums, options),
 * event-schemas.ts, command-schemas.ts, audit-schemas.ts; this file assembles the families'
 * unions and GAME_SCHEMAS.
 */
import {
  arrayOf,
  closed,
  constant,
  dateTime,
  hex64,
  int,
  type JsonSchema,
  nullable,
  ref,
  uuid,
} from './json-schema';
import { seatNo, upper } from './game-schema-fields';
import { type EventDef, farkleEvents, fiveDiceEvents, lifecycleEvents, seatStanding } from './event-schemas';
import { farkleMoves, fiveDiceMoves, lifecycleCommands } from './command-schemas';
import { AUDIT } from './audit-schemas';
import { ENUMS, OPTIONS } from './option-schemas';


/** `name` -> schema map of one discriminated union plus the union itself. */
function union(
  unionName: string,
  members: Record<string, JsonSchema>,
  nameOf: (type: string) => string,
  description: string,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const mapping: Record<string, string> = {};
  for (const [type, schema] of Object.entries(members)) {
    out[nameOf(type)] = schema;
    mapping[type] = `#/components/schemas/${nameOf(type)}`;
  }
  out[unionName] = {
    description,
    oneOf: Object.keys(members).map((t) => ref(nameOf(t))),
    discriminator: { propertyName: 'type', mapping },
  };
  return out;
}

function familySchemas(family: 'FiveDice' | 'Farkle', events: EventDef[], moves: Record<string, JsonSchema>) {
  const familyName = family === 'FiveDice' ? 'five-dice' : 'farkle';
  const schemas: Record<string, JsonSchema> = {};
  Object.assign(
    schemas,
    union(`${family}Move`, moves, (t) => `${family}${upper(t)}Move`, `A ${familyName} move (the \`move\` of a play command).`),
  );
  const commands = {
    ...lifecycleCommands(family),
    play: closed(
      { type: constant('play'), playerId: uuid(), move: ref(`${family}Move`) },
      { description: 'A move by the seat whose turn it is.' },
    ),
    computer: closed(
      { type: constant('computer'), seat: seatNo, level: ref('ComputerLevel'), moves: arrayOf(ref(`${family}Move`)) },
      { description: "A computer seat's turn: the moves the service chose at the seat's level, in order." },
    ),
    ...(family === 'FiveDice'
      ? {
          autoScore: closed(
            { type: constant('autoScore'), seat: seatNo, box: ref('BoxId') },
            { description: 'The player had not scored within autoScoreAfterMs of the last roll: the service scored.' },
          ),
        }
      : {}),
  };
  const commandName = (t: string) =>
    t === 'create' || t === 'play' || t === 'computer' ? `${family}${upper(t)}Command` : `${upper(t)}Command`;
  Object.assign(
    schemas,
    union(`${family}GameCommand`, commands, commandName, `A command of a ${familyName} game (stored on the first event of its batch).`),
  );
  const dataName = (e: EventDef) =>
    lifecycleEvents.includes(e) ? `${upper(e.type)}EventData` : `${family}${upper(e.type)}EventData`;
  for (const e of [...lifecycleEvents, ...events]) schemas[dataName(e)] = e.data;
  for (const audit of [false, true]) {
    const suffix = audit ? 'AuditEvent' : 'Event';
    const members: Record<string, JsonSchema> = {};
    for (const e of [...lifecycleEvents, ...events]) {
      const seat = e.seat === 'seat' ? seatNo : e.seat === 'null' ? { type: 'null' } : nullable(seatNo);
      members[e.type] = closed(
        {
          gameId: uuid(),
          version: int('Position in the game (1, 2, ...): the event version.', { minimum: 1 }),
          type: constant(e.type),
          seat,
          data: ref(dataName(e)),
          rollNumber: nullable(int('Which roll of the fairness stream this event records (from 0).', { minimum: 0 })),
          command: nullable(ref(`${family}GameCommand`)),
          prevHash: hex64('Hash of the previous event (the commitment for the first).'),
          hash: hex64('SHA-256 of the canonical event (docs/fairness.md §4).'),
          ...(audit ? {} : { createdAt: dateTime() }),
        },
        { description: e.description },
      );
    }
    const eventName = (t: string) => {
      const e = [...lifecycleEvents, ...events].find((x) => x.type === t) as EventDef;
      return lifecycleEvents.includes(e) ? `${upper(t)}${family}${suffix}` : `${family}${upper(t)}${suffix}`;
    };
    Object.assign(
      schemas,
      union(
        `${family}Game${suffix}`,
        members,
        eventName,
        `An event of a ${familyName} game${audit ? ', as in the audit bundle' : ''}, by \`type\`.`,
      ),
    );
  }
  return schemas;
}

/** Every hand-written game schema, by component name. */
export const GAME_SCHEMAS: Record<string, JsonSchema> = {
  ...ENUMS,
  SeatStanding: seatStanding,
  ...OPTIONS,
  ...familySchemas('FiveDice', fiveDiceEvents, fiveDiceMoves),
  ...familySchemas('Farkle', farkleEvents, farkleMoves),
  GameEvent: {
    description:
      "A stored event with its place in the hash chain: FiveDiceGameEvent or FarkleGameEvent according to the game's `family` (the families share the lifecycle events and reuse some type names).",
    anyOf: [ref('FiveDiceGameEvent'), ref('FarkleGameEvent')],
  },
  ...AUDIT,
};

/** The event types of each family (lifecycle first), for the SSE description and docs. */
export const EVENT_TYPES = {
  lifecycle: lifecycleEvents.map((e) => e.type),
  'five-dice': fiveDiceEvents.map((e) => e.type),
  farkle: farkleEvents.map((e) => e.type),
};
