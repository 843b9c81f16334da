import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { SeatStanding } from '../rules/core/family';
import { RULE_SET_NAMES } from '../rules/registry';
import { AuthenticatedPlayer, PlayerProfile, RuleSetStats } from './players.types';
import { generateToken, hashToken, looksLikeToken, sameHash } from './tokens';

@Injectable()
export class PlayersService {
  constructor(private readonly prisma: PrismaService) {}

  /** Registers a player; the token is returned here once and never again (only its hash is kept). */
  async register(displayName: string): Promise<{ player: PlayerProfile; token: string }> {
    const token = generateToken();
    const player = await this.prisma.player.create({
      data: { id: randomUUID(), displayName: displayName.trim(), tokenHash: hashToken(token) },
    });
    return { player: toProfile(player), token };
  }

  async profile(playerId: string): Promise<PlayerProfile> {
    const player = await this.prisma.player.findUnique({ where: { id: playerId } });
    if (!player) throw new DomainException('PLAYER_NOT_FOUND', 'No such player');
    return toProfile(player);
  }

  /** Issues a new token; the old one stops working at once. */
  async rotateToken(playerId: string): Promise<{ token: string }> {
    const token = generateToken();
    await this.prisma.player.update({ where: { id: playerId }, data: { tokenHash: hashToken(token) } });
    return { token };
  }

  /** The player a bearer token belongs to, or null. */
  async authenticate(token: string): Promise<AuthenticatedPlayer | null> {
    if (!looksLikeToken(token)) return null;
    const hash = hashToken(token);
    const player = await this.prisma.player.findUnique({ where: { tokenHash: hash }, select: { id: true, displayName: true, tokenHash: true } });
    if (!player || !sameHash(player.tokenHash, hash)) return null;
    return { id: player.id, displayName: player.displayName };
  }

  /**
   * Statistics per rule set from the player's finished games. A game counts as solo when it has
   * one seat; a game in which the player holds several seats (hot seat) counts as finished but
   * neither toward the solo record nor toward wins and losses (002: hot-seat games are not
   * added to the solo record, and a win against oneself means nothing).
   */
  async stats(playerId: string): Promise<RuleSetStats[]> {
    const games = await this.prisma.game.findMany({
      where: { status: 'finished', seats: { some: { playerId } } },
      select: { ruleSet: true, seatCount: true, standings: true, seats: { select: { seat: true, playerId: true } } },
    });
    const byRuleSet = new Map<string, RuleSetStats>(
      RULE_SET_NAMES.map((name) => [name, { ruleSet: name, gamesFinished: 0, soloGamesFinished: 0, soloBestScore: null, wins: 0, losses: 0, ties: 0 }]),
    );
    for (const game of games) {
      const stats = byRuleSet.get(game.ruleSet);
      if (!stats) continue;
      const mySeats = game.seats.filter((s) => s.playerId === playerId).map((s) => s.seat);
      const standings = (game.standings ?? []) as unknown as SeatStanding[];
      stats.gamesFinished++;
      if (mySeats.length !== 1) continue; // hot seat
      const mine = standings.find((s) => s.seat === mySeats[0]);
      if (!mine) continue;
      if (game.seatCount === 1) {
        stats.soloGamesFinished++;
        stats.soloBestScore = Math.max(stats.soloBestScore ?? mine.total, mine.total);
        continue;
      }
      const sharedFirst = standings.filter((s) => s.rank === 1).length > 1;
      if (mine.rank === 1 && sharedFirst) stats.ties++;
      else if (mine.rank === 1) stats.wins++;
      else stats.losses++;
    }
    return [...byRuleSet.values()];
  }
}

const toProfile = (p: { id: string; displayName: string; createdAt: Date }): PlayerProfile => ({
  id: p.id,
  displayName: p.displayName,
  createdAt: p.createdAt,
});
