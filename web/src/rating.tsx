/** Players' ratings in a rated game's chips (docs/ratings.md): fetched per seated player, shown rounded. */
import { useEffect, useState } from 'react';
import { api, unwrap, type GameView } from './api';
import { ratingLabel, type ChipRatings } from './util';

/** A seat's rating in the game's pool, after the name in its chip; nothing when the game is not rated. */
export function RatingTag({ game, seat, ratings }: { game: GameView; seat: number; ratings?: ChipRatings }) {
  const label = ratingLabel(game, seat, ratings);
  if (label === null) return null;
  return (
    <span className="rating" title={`Rating in ${game.ruleSet}${label.endsWith('?') ? ' (provisional)' : ''}`}>
      {label}
    </span>
  );
}

/**
 * The seated players' ratings in a rated game's pool (a player without one shows the starting
 * 1500, provisional), read when the seats change and again once the game ended (the update runs
 * right after the finish, docs/ratings.md §3).
 */
export function useChipRatings(game: GameView | null): ChipRatings {
  const [ratings, setRatings] = useState<ChipRatings>({});
  const ids = game?.rated ? [...new Set(game.seats.map((s) => s.playerId).filter((p): p is string => !!p))] : [];
  const key = `${game?.id}:${ids.join(',')}:${game?.status}`;
  useEffect(() => {
    if (!game?.rated || ids.length === 0) return;
    let stop = false;
    const load = async () => {
      const entries = await Promise.all(
        ids.map(async (id) => {
          const list = unwrap(await api.GET('/v1/players/{id}/ratings', { params: { path: { id } } }));
          const mine = list.items.find((r) => r.pool === game.ruleSet);
          return [
            id,
            mine ? { rating: mine.rating, provisional: mine.provisional } : { rating: 1500, provisional: true },
          ];
        }),
      );
      if (!stop) setRatings(Object.fromEntries(entries) as ChipRatings);
    };
    void load().catch(() => undefined);
    // The finish's update is a job: read once more shortly after the game ended.
    const again = game.status === 'finished' ? setTimeout(() => void load().catch(() => undefined), 1500) : null;
    return () => {
      stop = true;
      if (again) clearTimeout(again);
    };
  }, [key]);
  return ratings;
}
