import { describeCompleteGames } from '../helpers/games';

jest.setTimeout(60_000);

describeCompleteGames('rest');
