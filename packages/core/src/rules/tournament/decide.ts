/**
 * The tournament aggregate as a decider (docs/tournaments.md): `decideTournament(state, command)`
 * returns the events a command produces or a coded RuleError; `evolveTournament` applies one
 * event. Pure: the seeds, the clock and the draw travel in the commands (the service derives the
 * draw with @fairdice/core/fairness/tournament and the rules re-check its shape).
 */
import { ruleError, type RuleError } from '../core/errors';
import { familyById, isRuleSetName, RULE_SETS } from '../registry';
import type { FamilyId } from '../core/family';
import {
  TOURNAMENT_LIMITS as L,
  type Entrant,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentEventType,
  type TournamentFormat,
  type TournamentState,
} from './types';

const SEED = /^[\x21-\x7e]{1,128}$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** Which formats a family supports (docs/tournaments.md §2). */
export const FORMATS_BY_FAMILY: Readonly<Record<FamilyId, readonly TournamentFormat[]>> = {
  // Duplicate needs dice with fixed positions (holds): the five-dice score sheet.
  'five-dice': ['duplicate', 'tables'],
  // Farkle's dice set aside change how many are thrown and where: no shared positions, tables only.
  farkle: ['tables'],
};

/** Fewest active entrants a tournament starts with: 2 in duplicate, the minimum table size at tables. */
export const minEntrants = (s: Pick<TournamentState, 'format' | 'tableSizeMin'>): number =>
  s.format === 'duplicate' ? 2 : Math.max(2, s.tableSizeMin);

export const emptyTournament = (id: string): TournamentState => ({
  id,
  organizerId: '',
  name: '',
  ruleSet: 'penta',
  family: 'five-dice',
  options: {},
  format: 'duplicate',
  visibility: 'public',
  maxEntrants: 0,
  rounds: 0,
  gamesPerRound: 0,
  tableSizeMin: 1,
  tableSizeMax: 1,
  turnTimeLimitSeconds: null,
  entryClosesAt: null,
  startsAt: null,
  status: 'registering',
  commitment: '',
  organizerSeed: null,
  organizerSeedGenerated: null,
  entrants: [],
  roundStates: [],
  tournamentSeed: null,
  cancelReason: null,
  version: 0,
});

const ev = (type: TournamentEventType, data: Record<string, unknown>): TournamentEvent => ({ type, data });
const intIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isoTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const ended = (s: TournamentState) => s.status === 'finished' || s.status === 'cancelled';

function checkReason(reason: unknown): RuleError | null {
  if (typeof reason !== 'string' || reason.trim().length < L.reasonLength.min || reason.length > L.reasonLength.max)
    return ruleError('INVALID_COMMAND', `reason must be ${L.reasonLength.min} to ${L.reasonLength.max} characters`);
  return null;
}

export function decideTournament(state: TournamentState, c: TournamentCommand): TournamentEvent[] | RuleError {
  if (c.type === 'create') return decideCreate(state, c);
  if (state.version === 0) return ruleError('INVALID_COMMAND', 'the tournament does not exist');
  const organizer = (playerId: string | null) =>
    playerId !== null && playerId !== state.organizerId
      ? ruleError('NOT_ORGANIZER', 'only the organizer of the tournament can do this')
      : null;
  if (ended(state) && c.type !== 'register')
    return ruleError('TOURNAMENT_OVER', `the tournament is ${state.status}`, { tournamentStatus: state.status });
  switch (c.type) {
    case 'register': {
      if (state.status !== 'registering')
        return ruleError('REGISTRATION_CLOSED', 'registration is closed', { tournamentStatus: state.status });
      if (state.entryClosesAt !== null && Date.parse(c.at) >= Date.parse(state.entryClosesAt))
        return ruleError('REGISTRATION_CLOSED', `registration closed at ${state.entryClosesAt}`);
      if (state.entrants.some((e) => e.playerId === c.playerId))
        return ruleError('ALREADY_REGISTERED', 'you are already registered');
      if (state.entrants.length >= state.maxEntrants)
        return ruleError('TOURNAMENT_FULL', `the tournament has its ${state.maxEntrants} entrants`, {
          maxEntrants: state.maxEntrants,
        });
      if (typeof c.clientSeed !== 'string' || !SEED.test(c.clientSeed))
        return ruleError('INVALID_SEED', 'clientSeed must be 1 to 128 printable ASCII characters without spaces');
      return [
        ev('entrantRegistered', {
          number: state.entrants.length + 1,
          playerId: c.playerId,
          clientSeed: c.clientSeed,
          clientSeedGenerated: c.clientSeedGenerated,
        }),
      ];
    }
    case 'setOrganizerSeed': {
      const err = organizer(c.playerId);
      if (err) return err;
      if (state.status !== 'registering')
        return ruleError('REGISTRATION_CLOSED', 'the organizer seed is fixed once registration closes');
      if (typeof c.organizerSeed !== 'string' || !SEED.test(c.organizerSeed))
        return ruleError('INVALID_SEED', 'organizerSeed must be 1 to 128 printable ASCII characters without spaces');
      return [ev('organizerSeedSet', { organizerSeed: c.organizerSeed })];
    }
    case 'closeRegistration': {
      const err = organizer(c.playerId);
      if (err) return err;
      if (state.status !== 'registering') return ruleError('REGISTRATION_CLOSED', 'registration is already closed');
      const generated = state.organizerSeed === null;
      return [
        ev('registrationClosed', {
          organizerSeed: generated ? c.generatedOrganizerSeed : state.organizerSeed,
          organizerSeedGenerated: generated,
          entrants: state.entrants.length,
        }),
      ];
    }
    case 'start': {
      const err = organizer(c.playerId);
      if (err) return err;
      if (state.status === 'registering')
        return ruleError('INVALID_COMMAND', 'close registration before starting (the service closes it first)');
      if (state.status !== 'closed') return ruleError('TOURNAMENT_ALREADY_STARTED', 'the tournament has started');
      const active = state.entrants.filter((e) => e.status === 'active').length;
      const min = minEntrants(state);
      if (active < min)
        return ruleError('TOO_FEW_ENTRANTS', `the tournament needs at least ${min} entrants, it has ${active}`, {
          entrants: active,
          minEntrants: min,
        });
      return [ev('tournamentStarted', { entrants: active })];
    }
    case 'startRound': {
      if (state.status !== 'running') return ruleError('TOURNAMENT_NOT_RUNNING', 'the tournament is not running');
      const last = state.roundStates[state.roundStates.length - 1];
      const expected = state.roundStates.length + 1;
      if (c.round !== expected || (last && !last.finished) || c.round > state.rounds)
        return ruleError('INVALID_COMMAND', `round ${c.round} cannot start now`);
      const active = new Set(state.entrants.filter((e) => e.status === 'active').map((e) => e.number));
      const seated = c.games.flatMap((g) => g.entrants);
      if (seated.some((n) => !active.has(n)))
        return ruleError('INVALID_COMMAND', 'a game of the round seats an entrant who is not active');
      return [ev('roundStarted', { round: c.round, games: c.games.map((g) => ({ ...g, entrants: [...g.entrants] })) })];
    }
    case 'finishRound': {
      const r = state.roundStates[c.round - 1];
      if (!r || r.finished) return ruleError('INVALID_COMMAND', `round ${c.round} is not running`);
      if (!HEX64.test(c.roundSeed)) return ruleError('INVALID_COMMAND', 'roundSeed must be 64 hex digits');
      const ids = new Set(r.games.map((g) => g.gameId));
      if (c.results.length !== ids.size || c.results.some((x) => !ids.has(x.gameId)))
        return ruleError('INVALID_COMMAND', 'a round finishes with the result of each of its games');
      return [ev('roundFinished', { round: c.round, roundSeed: c.roundSeed, results: c.results })];
    }
    case 'finish': {
      if (state.status !== 'running') return ruleError('TOURNAMENT_NOT_RUNNING', 'the tournament is not running');
      if (state.roundStates.some((r) => !r.finished)) return ruleError('INVALID_COMMAND', 'a round is still running');
      if (!HEX64.test(c.tournamentSeed)) return ruleError('INVALID_COMMAND', 'tournamentSeed must be 64 hex digits');
      return [ev('tournamentFinished', { tournamentSeed: c.tournamentSeed })];
    }
    case 'cancel': {
      const err = organizer(c.playerId) ?? checkReason(c.reason);
      if (err) return err;
      return [ev('tournamentCancelled', { reason: c.reason.trim(), tournamentSeed: c.tournamentSeed })];
    }
    case 'withdraw':
    case 'disqualify': {
      const self = c.playerId === c.entrantPlayerId;
      if (c.type === 'disqualify' || !self) {
        const err = organizer(c.playerId);
        if (err) return err;
      }
      const reasonErr = checkReason(c.reason);
      if (reasonErr) return reasonErr;
      const entrant = state.entrants.find((e) => e.playerId === c.entrantPlayerId);
      if (!entrant) return ruleError('NOT_REGISTERED', 'that player is not an entrant of this tournament');
      if (entrant.status !== 'active')
        return ruleError('INVALID_COMMAND', `the entrant is already ${entrant.status}`, {
          entrantStatus: entrant.status,
        });
      return [
        ev(c.type === 'withdraw' ? 'entrantWithdrawn' : 'entrantDisqualified', {
          number: entrant.number,
          playerId: entrant.playerId,
          reason: c.reason.trim(),
          by: self ? 'entrant' : 'organizer',
        }),
      ];
    }
    default:
      return ruleError('INVALID_COMMAND', 'unknown tournament command');
  }
}

function decideCreate(
  state: TournamentState,
  c: Extract<TournamentCommand, { type: 'create' }>,
): TournamentEvent[] | RuleError {
  if (state.version !== 0) return ruleError('INVALID_COMMAND', 'the tournament exists');
  const s = c.settings;
  if (!isRuleSetName(s.ruleSet)) return ruleError('INVALID_OPTIONS', `unknown rule set ${String(s.ruleSet)}`);
  const preset = RULE_SETS[s.ruleSet];
  const family = familyById(preset.family);
  const options = family.resolveOptions(preset.options, s.options ?? {});
  if (options instanceof Object && 'kind' in options && options.kind === 'RuleError') return options;
  if (s.format !== 'duplicate' && s.format !== 'tables')
    return ruleError('INVALID_OPTIONS', 'format is duplicate or tables');
  if (!FORMATS_BY_FAMILY[preset.family].includes(s.format))
    return ruleError('FORMAT_NOT_SUPPORTED', `${s.ruleSet} tournaments cannot use the ${s.format} format`, {
      ruleSet: s.ruleSet,
      format: s.format,
      supported: [...FORMATS_BY_FAMILY[preset.family]],
    });
  const bad = (m: string) => ruleError('INVALID_OPTIONS', m);
  if (typeof s.name !== 'string' || s.name.trim().length < L.nameLength.min || s.name.length > L.nameLength.max)
    return bad(`name must be ${L.nameLength.min} to ${L.nameLength.max} characters`);
  if (!intIn(s.maxEntrants, L.maxEntrants.min, L.maxEntrants.max))
    return bad(`maxEntrants must be ${L.maxEntrants.min} to ${L.maxEntrants.max}`);
  if (!intIn(s.rounds, L.rounds.min, L.rounds.max)) return bad(`rounds must be ${L.rounds.min} to ${L.rounds.max}`);
  if (!intIn(s.gamesPerRound, L.gamesPerRound.min, L.gamesPerRound.max))
    return bad(`gamesPerRound must be ${L.gamesPerRound.min} to ${L.gamesPerRound.max}`);
  let tableSizeMin = 1;
  let tableSizeMax = 1;
  if (s.format === 'tables') {
    const top = Math.max(2, preset.maxSeats);
    if (!intIn(s.tableSizeMin, 2, top) || !intIn(s.tableSizeMax, s.tableSizeMin, top))
      return bad(`tables seat 2 to ${top}: give 2 <= tableSizeMin <= tableSizeMax <= ${top}`);
    if (s.maxEntrants < s.tableSizeMin) return bad('maxEntrants is smaller than tableSizeMin');
    tableSizeMin = s.tableSizeMin;
    tableSizeMax = s.tableSizeMax;
  } else if ((s.tableSizeMin ?? 1) !== 1 || (s.tableSizeMax ?? 1) !== 1) {
    return bad('duplicate rounds are solo games: leave tableSizeMin and tableSizeMax at 1');
  }
  if (
    s.turnTimeLimitSeconds !== null &&
    !intIn(s.turnTimeLimitSeconds, L.turnTimeLimitSeconds.min, L.turnTimeLimitSeconds.max)
  )
    return bad(`turnTimeLimitSeconds must be ${L.turnTimeLimitSeconds.min} to ${L.turnTimeLimitSeconds.max}`);
  for (const f of ['entryClosesAt', 'startsAt'] as const) {
    const v = s[f];
    if (v !== null && (!isoTime(v) || Date.parse(v) <= Date.parse(c.at)))
      return bad(`${f} must be a time in the future`);
  }
  if (s.entryClosesAt !== null && s.startsAt !== null && Date.parse(s.startsAt) < Date.parse(s.entryClosesAt))
    return bad('startsAt must not be before entryClosesAt');
  if (s.visibility !== 'public' && s.visibility !== 'private') return bad('visibility is public or private');
  if (!HEX64.test(c.commitment)) return ruleError('INVALID_COMMAND', 'commitment must be 64 hex digits');
  return [
    ev('tournamentCreated', {
      organizerId: c.organizerId,
      name: s.name.trim(),
      ruleSet: s.ruleSet,
      family: preset.family,
      options,
      format: s.format,
      visibility: s.visibility,
      maxEntrants: s.maxEntrants,
      rounds: s.rounds,
      gamesPerRound: s.gamesPerRound,
      tableSizeMin,
      tableSizeMax,
      turnTimeLimitSeconds: s.turnTimeLimitSeconds,
      entryClosesAt: s.entryClosesAt,
      startsAt: s.startsAt,
      commitment: c.commitment,
    }),
  ];
}

/** Applies one event (never fails on a stored event: the decider checked it). */
export function evolveTournament(state: TournamentState, e: TournamentEvent): TournamentState {
  const d = e.data;
  const next: TournamentState = { ...state, version: state.version + 1 };
  const setEntrant = (n: number, patch: Partial<Entrant>) => {
    next.entrants = state.entrants.map((x) => (x.number === n ? { ...x, ...patch } : x));
  };
  switch (e.type) {
    case 'tournamentCreated':
      Object.assign(next, {
        organizerId: d.organizerId,
        name: d.name,
        ruleSet: d.ruleSet,
        family: d.family,
        options: d.options,
        format: d.format,
        visibility: d.visibility,
        maxEntrants: d.maxEntrants,
        rounds: d.rounds,
        gamesPerRound: d.gamesPerRound,
        tableSizeMin: d.tableSizeMin,
        tableSizeMax: d.tableSizeMax,
        turnTimeLimitSeconds: d.turnTimeLimitSeconds,
        entryClosesAt: d.entryClosesAt,
        startsAt: d.startsAt,
        commitment: d.commitment,
        status: 'registering',
      });
      return next;
    case 'entrantRegistered':
      next.entrants = [
        ...state.entrants,
        {
          number: d.number as number,
          playerId: d.playerId as string,
          clientSeed: d.clientSeed as string,
          clientSeedGenerated: Boolean(d.clientSeedGenerated),
          status: 'active',
          reason: null,
        },
      ];
      return next;
    case 'organizerSeedSet':
      next.organizerSeed = d.organizerSeed as string;
      next.organizerSeedGenerated = false;
      return next;
    case 'registrationClosed':
      next.organizerSeed = d.organizerSeed as string;
      next.organizerSeedGenerated = Boolean(d.organizerSeedGenerated);
      next.status = 'closed';
      return next;
    case 'tournamentStarted':
      next.status = 'running';
      return next;
    case 'roundStarted':
      next.roundStates = [
        ...state.roundStates,
        {
          round: d.round as number,
          games: d.games as TournamentState['roundStates'][number]['games'],
          finished: false,
          roundSeed: null,
          results: [],
        },
      ];
      return next;
    case 'roundFinished':
      next.roundStates = state.roundStates.map((r) =>
        r.round === d.round
          ? { ...r, finished: true, roundSeed: d.roundSeed as string, results: d.results as typeof r.results }
          : r,
      );
      return next;
    case 'entrantWithdrawn':
      setEntrant(d.number as number, { status: 'withdrawn', reason: d.reason as string });
      return next;
    case 'entrantDisqualified':
      setEntrant(d.number as number, { status: 'disqualified', reason: d.reason as string });
      return next;
    case 'tournamentFinished':
      next.status = 'finished';
      next.tournamentSeed = d.tournamentSeed as string;
      return next;
    case 'tournamentCancelled':
      next.status = 'cancelled';
      next.tournamentSeed = d.tournamentSeed as string;
      next.cancelReason = d.reason as string;
      return next;
    default:
      return next;
  }
}

export function replayTournament(id: string, events: readonly TournamentEvent[]): TournamentState {
  return events.reduce(evolveTournament, emptyTournament(id));
}

/** The seeds of the round seed, in order: the organizer seed, then every entrant's seed by entrant number. */
export function roundSeedInputs(state: TournamentState): string[] {
  if (state.organizerSeed === null) throw new Error('the organizer seed is fixed when registration closes');
  return [state.organizerSeed, ...[...state.entrants].sort((a, b) => a.number - b.number).map((e) => e.clientSeed)];
}
